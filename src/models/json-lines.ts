import { AgentError } from '../errors/agent-error.js';

/**
 * The JSON values of a newline-delimited body (Ollama's `/api/pull` progress), as they
 * arrive. Not the chat NDJSON reader (src/backend/ollama-body-reader.ts): that one
 * translates chat messages; these lines are progress records. A line that is not JSON is
 * skipped (a proxy's keep-alive blank), a last line cut off is dropped. Releases the body on
 * `break` or abort.
 */
export async function* jsonLines(response: Response): AsyncGenerator<unknown> {
  const reader = response.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line !== '') {
          const parsed = parse(line);
          if (parsed !== undefined) yield parsed;
        }
        newline = buffer.indexOf('\n');
      }
    }
    const last = parse(buffer.trim());
    if (last !== undefined) yield last;
  } catch (error) {
    if (error instanceof AgentError) throw error;
    throw new AgentError('NETWORK_ERROR', 'The connection dropped during the download', {
      cause: error,
    });
  } finally {
    reader.releaseLock();
    await response.body?.cancel().catch(() => undefined);
  }
}

function parse(line: string): unknown {
  if (line === '') return undefined;
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}
