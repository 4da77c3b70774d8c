import { AgentError } from '../errors/agent-error.js';
import { STREAM_DONE } from '../types/chat-request.js';
import { readNDJSONLines } from './ndjson-line-reader.js';
import { OllamaChunkTranslator } from './ollama-chunk-translator.js';
import { truncate, tryParseJSON } from './server-error-message.js';

/**
 * Reads an Ollama `/api/chat` NDJSON body as OpenAI chunks, then STREAM_DONE after the
 * `done: true` line. A body that ends without it just ends (the aggregator reports the
 * truncation); a last line cut off mid-JSON is dropped for the same reason.
 *
 * @throws AgentError `STREAM_ERROR` (`{"error": …}` line), `INVALID_RESPONSE` (a line
 *   that is not JSON, e.g. an HTML page, or not an Ollama message).
 */
export async function* readOllamaBody(
  texts: AsyncIterable<string>,
  url: string,
): AsyncGenerator<unknown> {
  const translator = new OllamaChunkTranslator(url);
  let lines = 0;
  for await (const line of readNDJSONLines(texts)) {
    lines++;
    const parsed = tryParseJSON(line.text);
    if (!parsed) {
      if (!line.terminated && lines > 1) return;
      throw new AgentError(
        'INVALID_RESPONSE',
        `Expected NDJSON from Ollama at ${url}, received: ${truncate(line.text)}`,
        {
          context: { url, received: truncate(line.text, 1_000) },
        },
      );
    }
    const { chunks, done } = translator.translate(parsed.value);
    yield* chunks;
    if (done) {
      yield STREAM_DONE;
      return;
    }
  }
}
