import { AgentError } from '../errors/agent-error.js';
import { jsonLines } from './json-lines.js';
import type { PullOptions } from './local-models.js';
import { count, isRecord, text } from './model-fields.js';
import { droppedPull, retryingPull } from './retrying-pull.js';
import type { ServerHttp } from './server-http.js';

/**
 * `POST /api/pull` and its NDJSON progress: `pulling manifest`, then one line per layer read
 * (`digest`, `total`, `completed`: summed over the layers for the whole), `verifying sha256
 * digest`, `writing manifest`, `success`; or `{"error": …}`. Dropping the connection stops
 * the download; Ollama keeps the layers' parts, so the next pull resumes.
 */
export function pullOllama(http: ServerHttp, name: string, options: PullOptions): Promise<void> {
  // Kept across attempts: a resumed pull reports each layer again, from where it was.
  const layers = new Map<string, { total: number; completed: number }>();
  return retryingPull(options, async (reporter, signal) => {
    const response = await http.open('/api/pull', { body: { model: name, stream: true }, signal });
    for await (const line of jsonLines(response)) {
      if (!isRecord(line)) continue;
      const error = text(line.error);
      if (error !== undefined)
        throw new AgentError('STREAM_ERROR', `Ollama could not pull "${name}": ${error}`);
      const status = text(line.status) ?? '';
      if (status === 'success') return reporter.finish();
      const digest = text(line.digest);
      const total = count(line.total);
      if (digest !== undefined && total !== undefined)
        layers.set(digest, { total, completed: Math.min(total, count(line.completed) ?? 0) });
      let completed = 0;
      let sum = 0;
      for (const layer of layers.values()) {
        completed += layer.completed;
        sum += layer.total;
      }
      reporter.update({
        status: digest === undefined ? status : 'downloading',
        completed,
        ...(sum > 0 ? { total: sum } : {}),
      });
    }
    throw droppedPull(name);
  });
}
