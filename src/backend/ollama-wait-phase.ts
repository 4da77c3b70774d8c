import type { WaitReport } from '../types/chat-request.js';
import { isRecord } from '../types/is-record.js';

/** What {@link watchOllamaLoad} needs. */
export interface OllamaWatchOptions {
  /** The server root, e.g. `http://localhost:11434`. */
  root: string;
  model: string;
  fetch: typeof globalThis.fetch;
  report: (report: WaitReport) => void;
  /** Ends the watch (the first byte came, or the call ended). */
  signal: AbortSignal;
  /** Milliseconds between asks while the model loads. Default 5,000. */
  everyMs?: number;
}

/**
 * Tells a model Ollama is loading from one it is reading the prompt with: `GET /api/ps` lists
 * the models in memory. Not listed → `loading_model`; listed → `reading_prompt` (and the
 * watch ends). Asked again every `everyMs` while loading, until `signal` aborts. Never throws:
 * a server that does not answer leaves the phase as it was.
 *
 * @example
 * watchOllamaLoad({ root: 'http://localhost:11434', model: 'qwen3:30b', fetch, report, signal });
 */
export async function watchOllamaLoad(options: OllamaWatchOptions): Promise<void> {
  const { root, model, fetch, report, signal } = options;
  while (!signal.aborted) {
    let loaded: boolean | undefined;
    try {
      const response = await fetch(`${root}/api/ps`, { signal });
      if (!response.ok) return;
      loaded = lists(await response.json(), model);
    } catch {
      return;
    }
    if (signal.aborted) return;
    report({ phase: loaded ? 'reading_prompt' : 'loading_model', model });
    if (loaded) return;
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, options.everyMs ?? 5_000);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve(undefined);
        },
        { once: true },
      );
    });
  }
}

/** True when an `/api/ps` answer lists `model` (`qwen3` matches `qwen3:latest`). */
function lists(body: unknown, model: string): boolean {
  const models = isRecord(body) && Array.isArray(body.models) ? body.models : [];
  const wanted = model.includes(':') ? model : `${model}:latest`;
  return models.some(
    (entry) =>
      isRecord(entry) && (entry.name === wanted || entry.model === wanted || entry.name === model),
  );
}
