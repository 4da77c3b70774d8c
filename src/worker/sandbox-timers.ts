/** Most timers the model's code may have pending at once. */
const MAX_TIMERS = 1_000;

/**
 * The worker's side of one sandboxed run's timers: when each is due. Their callbacks live in
 * the engine (the prelude's `fire(id)`); the run asks which are due and fires them.
 */
export class SandboxTimers {
  /** Timer id → when it is due (`performance.now()` time). */
  readonly #due = new Map<number, number>();

  /** How many timers are pending. */
  get size(): number {
    return this.#due.size;
  }

  /** Schedules (or reschedules) timer `id` in `delay` ms; throws a RangeError past the limit. */
  schedule(id: number, delay: number): void {
    if (!this.#due.has(id) && this.#due.size >= MAX_TIMERS) {
      throw new RangeError(`More than ${MAX_TIMERS} timers pending at once`);
    }
    this.#due.set(id, performance.now() + (delay > 0 ? delay : 0));
  }

  /** Forgets timer `id`; `true` when it was pending. */
  cancel(id: number): boolean {
    return this.#due.delete(id);
  }

  /** When the next timer is due (`Infinity` when none is pending). */
  next(): number {
    return Math.min(...this.#due.values());
  }

  /** The ids of the timers due at `now`, earliest first. */
  due(now: number): number[] {
    return [...this.#due]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1] || a[0] - b[0])
      .map(([id]) => id);
  }
}
