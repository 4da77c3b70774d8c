/** How long one task may feed a run's events before the page gets the main thread back. */
export const RUN_SLICE_MS = 25;

/**
 * Spreads the handling of a run's events over the page's tasks. A response with 200 tool
 * calls yields 400 events back to back, in one task of microtasks: re-rendering the entry on
 * each (200 cards, 600 renders) froze the page for a second (issue 27). Here a structural
 * change re-renders at once only the first time in a task; the others wait for the task's
 * end (one render then), and after {@link RUN_SLICE_MS} of work {@link pace} hands the main
 * thread back (input, paint) before the next event. A model streaming one event per network
 * read is one task per event: it renders exactly as before.
 *
 * @example
 * const slices = new RunSlices(() => host.changed());
 * for await (const event of events) {
 *   if (transcript.apply(entry, event)) slices.change();
 *   const paused = slices.pace();
 *   if (paused) await paused;
 * }
 * slices.flush();
 */
export class RunSlices {
  readonly #changed: () => void;
  readonly #budgetMs: number;
  /** When the current task started feeding events; `undefined` between tasks. */
  #sliceStart: number | undefined;
  #dirty = false;

  constructor(changed: () => void, budgetMs = RUN_SLICE_MS) {
    this.#changed = changed;
    this.#budgetMs = budgetMs;
  }

  /**
   * The entry's structure changed: re-rendered now once per task, else at the task's end —
   * except a change a listener may wait for (`urgent`: the run now waits for the user, or
   * ended): an `agent-event` listener awaiting `updateComplete` sees it rendered.
   */
  change(urgent = false): void {
    if (this.#sliceStart === undefined) {
      this.#open();
      this.#changed();
    } else if (urgent) {
      this.#dirty = false;
      this.#changed();
    } else this.#dirty = true;
  }

  /**
   * After an event: a promise to await (a macrotask) when this task has fed events for
   * longer than the budget, else `undefined` (no await, so a fast stream costs nothing).
   */
  pace(): Promise<void> | undefined {
    if (this.#sliceStart === undefined) {
      this.#open();
      return undefined;
    }
    if (performance.now() - this.#sliceStart < this.#budgetMs) return undefined;
    // The task-end timer set when the slice opened runs first: it renders what waited.
    return new Promise((resolve) => setTimeout(resolve, 0));
  }

  /** The run ended: a change still waiting is rendered now. */
  flush(): void {
    this.#close();
  }

  #open(): void {
    this.#sliceStart = performance.now();
    setTimeout(() => this.#close(), 0);
  }

  #close(): void {
    this.#sliceStart = undefined;
    if (!this.#dirty) return;
    this.#dirty = false;
    this.#changed();
  }
}
