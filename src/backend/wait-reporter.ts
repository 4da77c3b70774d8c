import type { WaitReport } from '../types/chat-request.js';
import { isRecord } from '../types/is-record.js';

/** Milliseconds without a first byte before Ollama is asked what it is doing. */
const ASK_OLLAMA_AFTER_MS = 1_000;

/** What {@link WaitReporter} needs to know about the server and the call. */
export interface WaitReporterOptions {
  report: (report: WaitReport) => void;
  /** The server root (no `/v1`), for Ollama's `/api/ps`. */
  root: string;
  model: string;
  fetch: typeof globalThis.fetch;
  /** True when the server is Ollama (`api: 'ollama'`, or its port 11434). */
  ollama: boolean;
}

/**
 * Tells the loop what a wait for the first token is, from what the server offers: Ollama's
 * `/api/ps` (asked only after a second without a byte: a fast answer costs no request) and
 * llama.cpp's `prompt_progress` chunks (`return_progress: true`). One per request.
 */
export class WaitReporter {
  readonly #options: WaitReporterOptions;
  /**
   * Stops Ollama's watch: made only when the watch starts (after a second without a byte), so a
   * fast answer pays no AbortController, and no `abort()` (each builds a DOMException with a
   * stack trace: about as much as the rest of a short request's bookkeeping).
   */
  #stop: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: WaitReporterOptions) {
    this.#options = options;
    options.report({ phase: 'waiting', model: options.model });
    if (options.ollama) this.#timer = setTimeout(this.#askOllama, ASK_OLLAMA_AFTER_MS);
  }

  readonly #askOllama = (): void => {
    this.#timer = undefined;
    const { root, model, fetch, report } = this.#options;
    const stop = (this.#stop = new AbortController());
    // Loaded only for a wait that lasts: most answers start within a second.
    void import('./ollama-wait-phase.js')
      .then(({ watchOllamaLoad }) =>
        watchOllamaLoad({ root, model, fetch, report, signal: stop.signal }),
      )
      .catch(() => undefined);
  };

  /** The body has started: Ollama's first byte is its first token, so its watch ends. */
  started(): void {
    this.#end();
  }

  /**
   * Looks at a batch of chunks until the answer begins: llama.cpp's `prompt_progress`
   * (`{ total, cache, processed }`) becomes `reading_prompt` with the share of the uncached
   * prompt read so far. Returns false once the answer has begun: later batches need not be shown.
   */
  observe(batch: readonly unknown[]): boolean {
    // Hot path: per chunk until the answer begins (checks written out, not called).
    // Every chunk is a record (STREAM_DONE too): the readers hand out nothing else.
    for (const { prompt_progress: progress, choices } of batch as readonly Record<
      string,
      unknown
    >[]) {
      if (progress != null && isRecord(progress)) {
        const total = numberOr(progress.total, 0);
        const cache = numberOr(progress.cache, 0);
        const processed = numberOr(progress.processed, 0);
        const left = total - cache;
        this.#options.report({
          phase: 'reading_prompt',
          progress: left > 0 ? Math.min(1, Math.max(0, (processed - cache) / left)) : undefined,
          model: this.#options.model,
        });
      } else if (Array.isArray(choices) && choices.length > 0) {
        return false;
      }
    }
    return true;
  }

  /** The call ended (answered, failed or stopped). */
  close(): void {
    this.#end();
  }

  #end(): void {
    // Only Ollama's watch sets a timer: no clearTimeout call per request for other servers.
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#stop?.abort();
  }
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
