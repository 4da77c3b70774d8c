/**
 * The console output of one run, on the worker's side: entries arrive already formatted by
 * the engine, and at most `limit` characters are kept — past it, entries are only counted,
 * so a loop printing millions of lines costs memory for `limit` characters, not for all.
 */
export class SandboxOutput {
  readonly entries: string[] = [];
  #kept = 0;
  #omitted = 0;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Characters that still fit. */
  get room(): number {
    return Math.max(this.#limit - this.#kept, 0);
  }

  /** Characters of output that did not fit. */
  get omittedChars(): number {
    return this.#omitted;
  }

  /** Characters kept. */
  get keptChars(): number {
    return this.#kept;
  }

  /**
   * Adds an entry of `length` characters, cut by the engine from `fullLength`. `read` is
   * called only when some of it fits, so a huge string is never copied out of the engine
   * just to be dropped; an entry longer than the room the engine was told about is dropped.
   */
  write(length: number, fullLength: number, read: () => string): void {
    const room = this.room;
    const total = Math.max(length, fullLength);
    if (length > room + 1 || (room === 0 && length > 0)) {
      this.#omitted += total;
      return;
    }
    const text = read().slice(0, room);
    this.entries.push(text);
    this.#kept += text.length;
    this.#omitted += total - text.length;
  }
}
