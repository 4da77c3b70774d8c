import { AgentError } from '../errors/agent-error.js';
import { STREAM_DONE } from '../types/chat-request.js';
import { completionToChunks } from './completion-to-chunks.js';
import { truncate, tryParseJSON } from './server-error-message.js';
import { readSSEChunks } from './sse-chunk-reader.js';

/** Bodies larger than this cannot be a whole non-streamed chat completion. */
const JSON_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * Reads a 2xx body from an OpenAI-compatible `/chat/completions`: an SSE stream
 * (→ {@link readSSEChunks}), a whole JSON answer (servers that ignore `stream: true`;
 * → {@link completionToChunks}, then STREAM_DONE), or something else (an HTML page from a
 * dev server's SPA fallback: `INVALID_RESPONSE`). Decided by the first non-blank
 * character, not the content type: servers mislabel streams both ways.
 */
export async function* readOpenAIBody(
  texts: AsyncIterable<string>,
  url: string,
): AsyncGenerator<unknown> {
  const iterator = texts[Symbol.asyncIterator]();
  let head = '';
  let ended = false;
  while (head.trim() === '') {
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    head += next.value;
  }
  const rest = replay(head, iterator, ended);
  const first = head.trimStart()[0];
  if (first === '{' || first === '[') {
    yield* completionToChunks(await readJSON(rest, url), url);
    yield STREAM_DONE;
    return;
  }
  if (first === '<') {
    let page = '';
    for await (const text of rest) {
      page += text;
      if (page.length >= 300) break;
    }
    throw new AgentError(
      'INVALID_RESPONSE',
      `Expected a chat-completions event stream from ${url}, received an HTML page: ${truncate(page)} — check baseURL (most servers want it to end in /v1)`,
      { context: { url, received: truncate(page, 1_000) } },
    );
  }
  yield* readSSEChunks(rest, url);
}

async function* replay(
  head: string,
  iterator: AsyncIterator<string>,
  ended: boolean,
): AsyncGenerator<string> {
  try {
    if (head !== '') yield head;
    if (ended) return;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next())
      yield next.value;
  } finally {
    await iterator.return?.();
  }
}

async function readJSON(texts: AsyncIterable<string>, url: string): Promise<unknown> {
  let text = '';
  for await (const piece of texts) {
    text += piece;
    if (text.length > JSON_BODY_LIMIT) break;
  }
  const parsed = tryParseJSON(text);
  if (parsed) return parsed.value;
  throw new AgentError(
    'INVALID_RESPONSE',
    `Expected a chat-completions stream or JSON from ${url}, received: ${truncate(text)}`,
    {
      context: { url, received: truncate(text, 1_000) },
    },
  );
}
