/** Something that writes its buffered changes to the DOM when a frame comes. */
export interface FrameTask {
  flush(): void;
}

/**
 * Batches DOM writes per animation frame: however many deltas arrive in a frame, each
 * dirty view is patched once, then `afterFlush` runs (to follow the scroll).
 */
export class FrameScheduler {
  readonly #dirty = new Set<FrameTask>();
  readonly #afterFlush: () => void;
  #frame: number | undefined;

  constructor(afterFlush: () => void) {
    this.#afterFlush = afterFlush;
  }

  schedule(task: FrameTask): void {
    this.#dirty.add(task);
    this.#frame ??= requestAnimationFrame(() => this.flush());
  }

  /** Writes everything now (at the end of a run, before a structural re-render). */
  flush(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
    if (this.#dirty.size === 0) return;
    const tasks = [...this.#dirty];
    this.#dirty.clear();
    for (const task of tasks) task.flush();
    this.#afterFlush();
  }

  cancel(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
    this.#dirty.clear();
  }
}
