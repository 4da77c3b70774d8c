import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { AgentError } from '../errors/agent-error.js';
import { STREAM_DONE } from '../types/chat-request.js';
import type { BodyChunkReader } from './body-chunk-reader.js';
import { isErrorPayload, truncate, tryParseJSON } from './server-error-message.js';
import { streamError } from './stream-error.js';
import { isRecord } from '../types/is-record.js';

/**
 * Reads an OpenAI-style SSE body (`data: {chunk}` frames, `data: [DONE]`) from decoded
 * text pieces: each chunk JSON-parsed, not interpreted, then {@link STREAM_DONE} after
 * `[DONE]`. Framing is `eventsource-parser`'s: CRLF, comments (`: ping`), and frames
 * split anywhere are handled there.
 *
 * `push` throws `STREAM_ERROR` (after appending everything before it) for
 * `data: {"error": …}`, `event: error` frames and llama.cpp's legacy `error: {…}` line;
 * `INVALID_RESPONSE` for `data:` that is not JSON or a body that is not SSE.
 */
export function createSSEChunkReader(url: string): BodyChunkReader {
  /** Where the parser's callbacks put chunks during the current `push`. */
  let out: unknown[] = [];
  /** The first error of the current `push`; what follows it in the same text is dropped. */
  let error: AgentError | undefined;
  let finished = false;
  let sawEvent = false;
  let atEnd = false;
  let received = '';

  const onEvent = (event: EventSourceMessage): void => {
    sawEvent = true;
    if (finished || error !== undefined) return;
    const data = event.data.trim();
    if (event.event === 'error') {
      error = streamError(tryParseJSON(data)?.value ?? data, url);
    } else if (data === '[DONE]') {
      finished = true;
      out.push(STREAM_DONE);
    } else if (data !== '') {
      const parsed = tryParseJSON(data);
      if (!parsed) {
        // A frame cut by the end of the body is truncation (the aggregator reports it), not garbage.
        if (!atEnd) error = invalidData(data, url);
      } else if (isErrorPayload(parsed.value)) error = streamError(parsed.value, url);
      else if (isRecord(parsed.value)) out.push(parsed.value);
      else error = invalidData(data, url);
    }
  };

  const onError = (parseError: ParseError): void => {
    if (finished || error !== undefined) return;
    if (parseError.type === 'unknown-field' && parseError.field === 'error') {
      // llama.cpp (before b4000-ish) reported mid-stream failures as an `error: {json}` field line.
      const value = parseError.value ?? '';
      error = streamError(tryParseJSON(value)?.value ?? value, url);
    } else if (
      (parseError.type === 'unknown-field' && !sawEvent) ||
      parseError.type === 'max-buffer-size-exceeded'
    ) {
      error = notSSE(received, url);
    }
    // Unknown fields after real events, and bad `retry:` values, are ignored as the SSE spec says.
  };

  const parser = createParser({ onEvent, onError });
  const feed = (text: string, into: unknown[]): void => {
    out = into;
    parser.feed(text);
    if (error !== undefined) throw error;
  };

  return {
    get finished() {
      return finished;
    },
    push(text, into) {
      if (received.length < 300) received += text;
      feed(text, into);
    },
    end(into) {
      // Servers (and proxies) sometimes end without the blank line that dispatches the last frame.
      atEnd = true;
      feed('\n\n', into);
    },
  };
}

function invalidData(data: string, url: string): AgentError {
  return new AgentError(
    'INVALID_RESPONSE',
    `Expected a JSON chunk in the SSE stream from ${url}, received: ${truncate(data)}`,
    { context: { url, data: truncate(data, 1_000) } },
  );
}

function notSSE(received: string, url: string): AgentError {
  return new AgentError(
    'INVALID_RESPONSE',
    `Expected a chat-completions event stream from ${url}, received: ${truncate(received)}`,
    { context: { url, received: truncate(received, 1_000) } },
  );
}
