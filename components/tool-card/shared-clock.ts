/** What a {@link SharedClock} needs of the page's timers (injected in tests). */
export interface ClockTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const pageTimers: ClockTimers = {
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

/**
 * One interval for every running clock on the page. Each `<agent-elapsed>` had its own
 * `setInterval`: 200 running tool cards were 200 timers, 2,000 tasks a second, each writing
 * the DOM apart. Here one timer ticks them all in one task, and stops when none is left.
 *
 * @example
 * const clock = new SharedClock(100);
 * const stop = clock.add(() => (element.textContent = format(performance.now() - since)));
 * // … later, when the element leaves the page:
 * stop();
 */
export class SharedClock {
  readonly #ticks = new Set<() => void>();
  readonly #periodMs: number;
  readonly #timers: ClockTimers;
  #handle: unknown;

  constructor(periodMs: number, timers: ClockTimers = pageTimers) {
    this.#periodMs = periodMs;
    this.#timers = timers;
  }

  /** How many clocks tick (for tests and the bench). */
  get size(): number {
    return this.#ticks.size;
  }

  /** Calls `tick` on every beat until the returned function is called. */
  add(tick: () => void): () => void {
    this.#ticks.add(tick);
    this.#handle ??= this.#timers.setInterval(() => {
      for (const each of this.#ticks) each();
    }, this.#periodMs);
    return () => {
      this.#ticks.delete(tick);
      if (this.#ticks.size > 0 || this.#handle === undefined) return;
      this.#timers.clearInterval(this.#handle);
      this.#handle = undefined;
    };
  }
}
