/**
 * Downloads as the fake model servers (fake-model-servers.ts) run them: bytes arrive in
 * steps, the part done survives a dropped connection or a cancel (so the next pull resumes),
 * and a download can be told to drop its connection halfway or to fail with an error.
 */
export interface FakeDownloadOptions {
  /** Bytes of each layer (Ollama) or file (llama.cpp); default [6_000_000, 1_000_000]. */
  layers?: number[];
  /** Milliseconds between steps (default 25). */
  stepMs?: number;
  /** Steps per layer (default 12). */
  steps?: number;
  /** Silence after the bytes, before "success" (Ollama verifying; default 600 ms). */
  verifyMs?: number;
  /** The first attempt drops its connection once this fraction (0..1) is done. */
  dropAt?: number;
  /** The first attempt reports this error once this fraction is done. */
  errorAt?: { fraction: number; message: string };
}

/** The state of one model's download across attempts. */
export class FakeDownload {
  readonly layers: number[];
  readonly done: number[];
  attempts = 0;
  /** The fraction done when each attempt started. */
  readonly startedAt: number[] = [];
  readonly options: FakeDownloadOptions;

  constructor(options: FakeDownloadOptions) {
    this.options = options;
    this.layers = options.layers ?? [6_000_000, 1_000_000];
    this.done = this.layers.map(() => 0);
  }

  get total(): number {
    return this.layers.reduce((sum, size) => sum + size, 0);
  }

  get fraction(): number {
    return this.done.reduce((sum, size) => sum + size, 0) / this.total;
  }

  /**
   * Runs one attempt: `step` is told after each step; resolves 'done', 'dropped' (the first
   * attempt at `dropAt`), 'error', or 'stopped' (`stopped()` turned true: the client left).
   */
  async run(
    step: (layer: number) => void,
    stopped: () => boolean,
  ): Promise<'done' | 'dropped' | 'error' | 'stopped'> {
    this.attempts++;
    this.startedAt.push(this.fraction);
    const steps = this.options.steps ?? 12;
    // Every layer is announced first (Ollama starts them all at once), with what it has.
    for (let layer = 0; layer < this.layers.length; layer++) step(layer);
    for (let layer = 0; layer < this.layers.length; layer++) {
      const size = this.layers[layer] ?? 0;
      while ((this.done[layer] ?? 0) < size) {
        await new Promise((resolve) => setTimeout(resolve, this.options.stepMs ?? 25));
        if (stopped()) return 'stopped';
        this.done[layer] = Math.min(size, (this.done[layer] ?? 0) + Math.ceil(size / steps));
        step(layer);
        if (
          this.attempts === 1 &&
          this.options.dropAt !== undefined &&
          this.fraction >= this.options.dropAt
        )
          return 'dropped';
        if (
          this.attempts === 1 &&
          this.options.errorAt !== undefined &&
          this.fraction >= this.options.errorAt.fraction
        )
          return 'error';
      }
    }
    return 'done';
  }
}
