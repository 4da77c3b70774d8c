import { AgentError } from '../errors/agent-error.js';
import { STREAM_DONE } from '../types/chat-request.js';
import type { BodyChunkReader } from './body-chunk-reader.js';
import { completionToChunks } from './completion-to-chunks.js';
import { truncate, tryParseJSON } from './server-error-message.js';
import { createSSEChunkReader } from './sse-chunk-reader.js';

/** Bodies larger than this cannot be a whole non-streamed chat completion. */
const JSON_BODY_LIMIT = 16 * 1024 * 1024;
/** How much of an HTML page the error quotes. */
const PAGE_LIMIT = 300;

/**
 * Reads a 2xx body from an OpenAI-compatible `/chat/completions`: an SSE stream
 * (→ {@link createSSEChunkReader}), a whole JSON answer (servers that ignore `stream: true`;
 * → {@link completionToChunks}, then STREAM_DONE), or something else (an HTML page from a
 * dev server's SPA fallback: `INVALID_RESPONSE`). Decided by the first non-blank
 * character, not the content type: servers mislabel streams both ways.
 */
export function createOpenAIBodyReader(url: string): BodyChunkReader {
  /** Decided by the first non-blank character; `undefined` while the body is blank so far. */
  let kind: 'json' | 'html' | undefined;
  /** The blank head, then the whole JSON body or the start of the HTML page. */
  let text = '';
  let sse: BodyChunkReader | undefined;

  // `finished` a plain field, not a getter: the transport reads it after every body read.
  const reader = {
    finished: false,
    push(piece: string, out: unknown[]) {
      if (sse !== undefined) {
        // Hot path: per body read of a stream.
        sse.push(piece, out);
        reader.finished = sse.finished;
        return;
      }
      text += piece;
      if (kind === undefined) {
        const first = text.trimStart()[0];
        if (first === undefined) return;
        if (first === '{' || first === '[') kind = 'json';
        else if (first === '<') kind = 'html';
        else {
          sse = createSSEChunkReader(url);
          sse.push(text, out);
          reader.finished = sse.finished;
          return;
        }
      }
      if (text.length >= (kind === 'json' ? JSON_BODY_LIMIT : PAGE_LIMIT)) reader.end(out);
    },
    end(out: unknown[]) {
      reader.finished = true;
      if (kind === 'json') {
        out.push(...completionToChunks(parseJSON(text, url), url), STREAM_DONE);
      } else if (kind === 'html') {
        throw new AgentError(
          'INVALID_RESPONSE',
          `Expected a chat-completions event stream from ${url}, received an HTML page: ${truncate(text)} — check baseURL (most servers want it to end in /v1)`,
          { context: { url, received: truncate(text, 1_000) } },
        );
      } else {
        if (sse === undefined) {
          // A body blank to the end is an SSE stream without events (the aggregator reports the truncation).
          sse = createSSEChunkReader(url);
          sse.push(text, out);
        }
        sse.end(out);
      }
    },
  };
  return reader;
}

function parseJSON(text: string, url: string): unknown {
  const parsed = tryParseJSON(text);
  if (parsed) return parsed.value;
  throw new AgentError(
    'INVALID_RESPONSE',
    `Expected a chat-completions stream or JSON from ${url}, received: ${truncate(text)}`,
    { context: { url, received: truncate(text, 1_000) } },
  );
}
