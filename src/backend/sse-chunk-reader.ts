import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { AgentError } from '../errors/agent-error.js';
import { STREAM_DONE } from '../types/chat-request.js';
import type { BodyChunkReader } from './body-chunk-reader.js';
import { truncate, tryParseJSON } from './server-error-message.js';
import { streamError } from './stream-error.js';

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
  let sawEvent = false;
  let atEnd = false;
  let received = '';

  // Hot path: per chunk. The checks are written out, not called (isRecord, isErrorPayload,
  // tryParseJSON): in the first runs V8 interprets this code, and each call costs.
  const onEvent = (event: EventSourceMessage): void => {
    sawEvent = true;
    if (reader.finished || error !== undefined) return;
    const data = event.data.trim();
    if (event.event === 'error') {
      error = streamError(tryParseJSON(data)?.value ?? data, url);
    } else if (data === '[DONE]') {
      reader.finished = true;
      out.push(STREAM_DONE);
    } else if (data !== '') {
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch {
        // A frame cut by the end of the body is truncation (the aggregator reports it), not garbage.
        if (!atEnd) error = invalidData(data, url);
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        error = invalidData(data, url);
        return;
      }
      const chunk = value as Record<string, unknown>; // a non-array object: fields read as unknown
      // An error report rather than a chunk (isErrorPayload): `error` set, or `object: "error"`.
      if (chunk.error != null || chunk.object === 'error') error = streamError(chunk, url);
      else out.push(chunk);
    }
  };

  const onError = (parseError: ParseError): void => {
    if (reader.finished || error !== undefined) return;
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
  // `finished` a plain field, not a getter: the transport reads it after every body read.
  const reader = {
    finished: false,
    push(text: string, into: unknown[]) {
      if (received.length < 300) received += text;
      out = into;
      parser.feed(text);
      if (error !== undefined) throw error;
    },
    end(into: unknown[]) {
      // Servers (and proxies) sometimes end without the blank line that dispatches the last frame.
      atEnd = true;
      reader.push('\n\n', into);
    },
  };
  return reader;
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
