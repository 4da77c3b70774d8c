import { formatForLog } from './to-json-safe.js';

type Level = 'log' | 'info' | 'warn' | 'error' | 'debug';

/** The `console` the model's code sees: the usual methods, writing into one run's log. */
export type CapturedConsole = Pick<
  Console,
  | 'log'
  | 'info'
  | 'warn'
  | 'error'
  | 'debug'
  | 'trace'
  | 'dir'
  | 'table'
  | 'assert'
  | 'group'
  | 'groupCollapsed'
  | 'groupEnd'
  | 'time'
  | 'timeEnd'
  | 'timeLog'
  | 'count'
  | 'countReset'
  | 'clear'
>;

/**
 * Collects the console output of one run, keeping at most `limit` characters: past it,
 * entries are cut and only counted, so a `while` loop printing millions of lines costs
 * memory for `limit` characters, not for all of them.
 */
export class SandboxConsole {
  readonly entries: string[] = [];
  readonly console: CapturedConsole;
  #kept = 0;
  #omitted = 0;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
    const write =
      (level: Level) =>
      (...args: unknown[]) =>
        this.#write(level, args);
    const timers = new Map<string, number>();
    const counts = new Map<string, number>();
    const noop = () => undefined;
    this.console = {
      log: write('log'),
      info: write('info'),
      warn: write('warn'),
      error: write('error'),
      debug: write('debug'),
      trace: write('log'),
      dir: write('log'),
      table: write('log'),
      assert: (condition?: boolean, ...args: unknown[]) => {
        if (!condition) this.#write('error', ['Assertion failed:', ...args]);
      },
      group: write('log'),
      groupCollapsed: write('log'),
      groupEnd: noop,
      time: (label = 'default') => void timers.set(label, performance.now()),
      timeLog: (label = 'default') => this.#elapsed(timers, label, false),
      timeEnd: (label = 'default') => this.#elapsed(timers, label, true),
      count: (label = 'default') => {
        const count = (counts.get(label) ?? 0) + 1;
        counts.set(label, count);
        this.#write('log', [`${label}: ${count}`]);
      },
      countReset: (label = 'default') => void counts.delete(label),
      clear: noop,
    };
  }

  /** Characters of output that did not fit. */
  get omittedChars(): number {
    return this.#omitted;
  }

  /** Characters kept. */
  get keptChars(): number {
    return this.#kept;
  }

  #elapsed(timers: Map<string, number>, label: string, end: boolean): void {
    const start = timers.get(label);
    if (start === undefined) return this.#write('warn', [`Timer "${label}" does not exist`]);
    if (end) timers.delete(label);
    this.#write('log', [`${label}: ${(performance.now() - start).toFixed(1)} ms`]);
  }

  #write(level: Level, args: unknown[]): void {
    const text = (level === 'log' ? '' : `[${level}] `) + args.map(formatForLog).join(' ');
    const room = this.#limit - this.#kept;
    if (text.length <= room) {
      this.entries.push(text);
      this.#kept += text.length;
      return;
    }
    if (room > 0) {
      this.entries.push(text.slice(0, room));
      this.#kept += room;
    }
    this.#omitted += text.length - Math.max(room, 0);
  }
}
