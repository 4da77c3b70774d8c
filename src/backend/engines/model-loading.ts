import { WAITING_CHUNK, type WaitingChunk } from '../../types/chat-request.js';

/** Told how far a model's download and load have come (0..1), as often as the engine says. */
export type LoadProgressListener = (progress: number) => void;

/**
 * One model load shared by every request and by an explicit `load()`: started once, its
 * progress fanned out to whoever listens, retried after a failure (the next call loads again).
 */
export class ModelLoading<T> {
  readonly #start: (onProgress: LoadProgressListener) => Promise<T>;
  readonly #listeners = new Set<LoadProgressListener>();
  #loading: Promise<T> | undefined;
  #value: T | undefined;
  #progress = 0;

  constructor(start: (onProgress: LoadProgressListener) => Promise<T>) {
    this.#start = start;
  }

  /** The loaded value, once the load succeeded. */
  get value(): T | undefined {
    return this.#value;
  }

  /** The last progress reported (0..1). */
  get progress(): number {
    return this.#progress;
  }

  /** Starts the load (or joins the one under way). */
  load(onProgress?: LoadProgressListener): Promise<T> {
    if (onProgress) this.#listeners.add(onProgress);
    this.#loading ??= this.#start((progress) => {
      this.#progress = progress;
      for (const listener of this.#listeners) listener(progress);
    }).then(
      (value) => {
        this.#value = value;
        return value;
      },
      (error: unknown) => {
        this.#loading = undefined;
        this.#progress = 0;
        throw error;
      },
    );
    const loading = this.#loading;
    if (onProgress) {
      const remove = () => this.#listeners.delete(onProgress);
      loading.then(remove, remove);
    }
    return loading;
  }

  /** Forgets the loaded value: the next request loads again. */
  reset(): void {
    this.#loading = undefined;
    this.#value = undefined;
    this.#progress = 0;
  }

  /**
   * Loads (or joins the load), yielding a {@link WaitingChunk} for each progress report while
   * it goes on — only the latest when reports come faster than they are read — and returns the
   * loaded value. An abort of `signal` stops waiting (the load itself goes on, for the next call).
   */
  async *waitFor(options: {
    model: string;
    signal?: AbortSignal | undefined;
  }): AsyncGenerator<WaitingChunk, T> {
    const loaded = this.#value;
    if (loaded !== undefined) return loaded;
    options.signal?.throwIfAborted(); // an abort event that already fired never comes again
    const started = performance.now();
    let latest: number | undefined;
    let settled = false;
    let wake: (() => void) | undefined;
    const listener: LoadProgressListener = (progress) => {
      latest = progress;
      wake?.();
    };
    const loading = this.load(listener);
    const onSettled = () => {
      settled = true;
      wake?.();
    };
    loading.then(onSettled, onSettled);
    const { signal } = options;
    signal?.addEventListener('abort', onSettled, { once: true });
    try {
      // After the load settles, the last progress still goes out (the load's final 1).
      while (!settled || latest !== undefined) {
        if (latest !== undefined) {
          const progress: number = latest;
          latest = undefined;
          yield {
            object: WAITING_CHUNK,
            phase: 'loading_model',
            elapsedMs: Math.round(performance.now() - started),
            progress,
            model: options.model,
          };
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      signal?.throwIfAborted();
      return await loading;
    } finally {
      this.#listeners.delete(listener);
      signal?.removeEventListener('abort', onSettled);
    }
  }
}
