/** Something that writes its buffered changes to the DOM when a frame comes. */
export interface FrameTask {
  flush(): void;
}

/**
 * Batches DOM writes per animation frame: however many deltas arrive in a frame, each
 * dirty view is patched once. It only writes; nothing here reads layout (the scroll
 * follows from a ResizeObserver, after the browser's own layout).
 */
export class FrameScheduler {
  readonly #dirty = new Set<FrameTask>();
  #frame: number | undefined;

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
  }

  cancel(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
    this.#dirty.clear();
  }
}
