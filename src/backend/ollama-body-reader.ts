import { AgentError } from '../errors/agent-error.js';
import { STREAM_DONE } from '../types/chat-request.js';
import type { BodyChunkReader } from './body-chunk-reader.js';
import { OllamaChunkTranslator } from './ollama-chunk-translator.js';
import { truncate } from './server-error-message.js';

/**
 * The project's only NDJSON reader: splits an Ollama `/api/chat` body into lines (LF or
 * CRLF, blank ones skipped) and reads them as OpenAI chunks, then STREAM_DONE after the
 * `done: true` line. A body that ends without it just ends (the aggregator reports the
 * truncation); a last line cut off mid-JSON is dropped for the same reason.
 *
 * `push` throws `STREAM_ERROR` (`{"error": …}` line) and `INVALID_RESPONSE` (a line that
 * is not JSON, e.g. an HTML page, or not an Ollama message), after the chunks before it.
 */
export function createOllamaBodyReader(url: string): BodyChunkReader {
  const translator = new OllamaChunkTranslator(url);
  /** The unterminated rest of the body so far. */
  let buffer = '';
  let count = 0;

  // Hot path: per line (JSON.parse inline, not through tryParseJSON).
  const read = (line: string, terminated: boolean, out: unknown[]): void => {
    count++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (!terminated && count > 1) return;
      throw new AgentError(
        'INVALID_RESPONSE',
        `Expected NDJSON from Ollama at ${url}, received: ${truncate(line)}`,
        { context: { url, received: truncate(line, 1_000) } },
      );
    }
    const { chunks, done } = translator.translate(value);
    for (const chunk of chunks) out.push(chunk);
    if (done) {
      out.push(STREAM_DONE);
      reader.finished = true;
    }
  };

  // `finished` a plain field, not a getter: the transport reads it after every body read.
  const reader = {
    finished: false,
    push(text: string, out: unknown[]) {
      const lines = (buffer + text).split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const trimmed = line.trim();
        if (trimmed !== '') read(trimmed, true, out);
        if (reader.finished) return;
      }
    },
    end(out: unknown[]) {
      const last = buffer.trim();
      if (last !== '') read(last, false, out);
    },
  };
  return reader;
}
