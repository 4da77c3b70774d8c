import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { AgentError } from '../errors/agent-error.js';
import { STREAM_DONE } from '../types/chat-request.js';
import { isErrorPayload, isRecord, truncate, tryParseJSON } from './server-error-message.js';
import { streamError } from './stream-error.js';

type Item =
  { type: 'chunk'; value: unknown } | { type: 'done' } | { type: 'error'; error: AgentError };

/**
 * Reads an OpenAI-style SSE body (`data: {chunk}` frames, `data: [DONE]`) from decoded
 * text pieces and yields each chunk (JSON-parsed, not interpreted), then
 * {@link STREAM_DONE} after `[DONE]`. Framing is `eventsource-parser`'s: CRLF, comments
 * (`: ping`), and frames split anywhere are handled there.
 *
 * @throws AgentError `STREAM_ERROR` after yielding everything before it, for
 *   `data: {"error": …}`, `event: error` frames and llama.cpp's legacy `error: {…}` line;
 *   `INVALID_RESPONSE` for `data:` that is not JSON or a body that is not SSE.
 */
export async function* readSSEChunks(
  texts: AsyncIterable<string>,
  url: string,
): AsyncGenerator<unknown> {
  const items: Item[] = [];
  let sawEvent = false;
  let atEnd = false;
  let received = '';

  const onEvent = (event: EventSourceMessage) => {
    sawEvent = true;
    const data = event.data.trim();
    if (event.event === 'error') {
      items.push({ type: 'error', error: streamError(tryParseJSON(data)?.value ?? data, url) });
      return;
    }
    if (data === '[DONE]') {
      items.push({ type: 'done' });
      return;
    }
    if (data === '') return;
    const parsed = tryParseJSON(data);
    if (!parsed) {
      // A frame cut by the end of the body is truncation (the aggregator reports it), not garbage.
      if (!atEnd) items.push({ type: 'error', error: invalidData(data, url) });
      return;
    }
    if (isErrorPayload(parsed.value))
      items.push({ type: 'error', error: streamError(parsed.value, url) });
    else if (isRecord(parsed.value)) items.push({ type: 'chunk', value: parsed.value });
    else items.push({ type: 'error', error: invalidData(data, url) });
  };

  const onError = (error: ParseError) => {
    if (error.type === 'unknown-field' && error.field === 'error') {
      // llama.cpp (before b4000-ish) reported mid-stream failures as an `error: {json}` field line.
      const value = error.value ?? '';
      items.push({ type: 'error', error: streamError(tryParseJSON(value)?.value ?? value, url) });
    } else if (error.type === 'unknown-field' && !sawEvent) {
      items.push({ type: 'error', error: notSSE(received, url) });
    } else if (error.type === 'max-buffer-size-exceeded') {
      items.push({ type: 'error', error: notSSE(received, url) });
    }
    // Unknown fields after real events, and bad `retry:` values, are ignored as the SSE spec says.
  };

  const parser = createParser({ onEvent, onError });
  for await (const text of texts) {
    if (received.length < 300) received += text;
    parser.feed(text);
    yield* drain(items);
    if (items.length > 0) return; // drain stopped at [DONE]
  }
  // Servers (and proxies) sometimes end without the blank line that dispatches the last frame.
  atEnd = true;
  parser.feed('\n\n');
  yield* drain(items);
}

/** Yields queued chunks in order; throws at an error; at `[DONE]` yields STREAM_DONE and leaves the item queued. */
function* drain(items: Item[]): Generator<unknown> {
  while (items.length > 0) {
    const item = items[0];
    if (item?.type === 'done') {
      yield STREAM_DONE;
      return;
    }
    items.shift();
    if (item?.type === 'error') throw item.error;
    if (item?.type === 'chunk') yield item.value;
  }
}

function invalidData(data: string, url: string): AgentError {
  return new AgentError(
    'INVALID_RESPONSE',
    `Expected a JSON chunk in the SSE stream from ${url}, received: ${truncate(data)}`,
    {
      context: { url, data: truncate(data, 1_000) },
    },
  );
}

function notSSE(received: string, url: string): AgentError {
  return new AgentError(
    'INVALID_RESPONSE',
    `Expected a chat-completions event stream from ${url}, received: ${truncate(received)}`,
    { context: { url, received: truncate(received, 1_000) } },
  );
}
