/**
 * The part of the sandbox runtime that lives inside the QuickJS engine, next to the model's
 * code: `console`, timers, `fetch` when granted, compiling the code, and turning its result
 * into JSON text (with `sandboxJsonSafe`, evaluated the same way: sandbox-json-safe.ts).
 *
 * `sandboxPrelude` is never called in the worker's own realm: its source text
 * (`Function.prototype.toString`) is evaluated in each run's fresh QuickJS context. So it
 * must be self-contained — no imports, no references to anything outside its body, no
 * syntax that a transpiler would lower into helpers — and it sees only what `host` gives it.
 * Everything it hands back to the worker is a string or a number, which the worker checks
 * again (src/worker/sandbox-run.ts): the model's code runs in the same context and may
 * have replaced any built-in by the time these functions run.
 */

import type { JsonSafe } from './sandbox-json-safe.js';

/** The only functions of the worker the engine can call (and through them, the model's code). */
export interface PreludeHost {
  /** Appends one console entry of `length` characters, already formatted and cut to `room()` + 1. */
  write(level: string, text: string, length: number): void;
  /** Characters of console output that still fit. */
  room(): number;
  /** Asks the worker to call `fire(id)` in `delay` ms; timers die with the run. */
  schedule(id: number, delay: number): void;
  /** Forgets a scheduled timer. */
  cancel(id: number): void;
  /**
   * Present only when the app granted `fetchOrigins`: the worker fetches for the code and
   * settles with the response as JSON text ({@link SandboxFetchResponse}'s fields).
   */
  fetch?: (
    url: string,
    method: string,
    headers: string,
    body: string | undefined,
  ) => Promise<string>;
}

/** What the prelude gives the worker. */
export interface PreludeExports {
  /** Lines the engine puts before a compiled body (`(async function anonymous(\n) {\n`). */
  headerLines: number;
  /** Compiles the model's code as the body of an async function; throws its SyntaxError. */
  compile(body: string): () => Promise<unknown>;
  /** Runs timer `id`'s callback (an error it throws is logged, as a browser would report it). */
  fire(id: number): void;
  /**
   * Converts `value` to JSON-safe JSON text, kept until `take`, with strings longer than
   * `limit` cut first (a 100 MB string is not copied twice). Returns the length the text
   * would have had uncut (the characters cut are counted in), or -1 for `undefined`.
   */
  serialize(value: unknown, limit: number): number;
  /** The first `count` characters of the last `serialize`d text. */
  take(count: number): string;
  /** `{ name, message, stack? }` of a thrown value, as JSON text. */
  describe(thrown: unknown): string;
}

// Everything below is evaluated inside the engine; see the file comment. Built-in methods are
// captured unbound on purpose and called through the captured `Reflect.apply`, so that the
// model's code cannot change what they do by patching prototypes.
/* eslint-disable @typescript-eslint/unbound-method */
export function sandboxPrelude(host: PreludeHost, json: JsonSafe): PreludeExports {
  // Captured before the model's code runs: it may replace any of these globals later.
  const apply = Reflect.apply;
  const ownKeys = Object.keys;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const toSource = Function.prototype.toString;
  const now = Date.now;
  const toNumber = Number;
  const StringOf = String;
  const toText = (value: unknown): string => StringOf(value);
  const resolved = Promise.resolve();
  const then = Promise.prototype.then;
  // eslint-disable-next-line @typescript-eslint/require-await -- only its constructor is used
  const asyncArrow = async () => undefined;
  const AsyncFunction = (getPrototypeOf(asyncArrow) as { constructor: unknown })
    .constructor as new (body: string) => () => Promise<unknown>;
  const { cut, formatForLog } = json;

  const write = (level: string, values: unknown[]): void => {
    const parts: string[] = [];
    for (let index = 0; index < values.length; index += 1) {
      parts[index] = formatForLog(values[index]);
    }
    let text = level === 'log' ? '' : `[${level}] `;
    for (let index = 0; index < parts.length; index += 1) {
      text += (index === 0 ? '' : ' ') + parts[index];
    }
    const room = host.room();
    host.write(level, text.length > room + 1 ? cut(text, room + 1) : text, text.length);
  };

  const logger = (level: string) =>
    function (...values: unknown[]): void {
      write(level, values);
    };
  const timers: Record<string, number> = {};
  const counts: Record<string, number> = {};
  const elapsed = (label: string, end: boolean): void => {
    const start = timers[label];
    if (start === undefined) {
      write('warn', [`Timer "${label}" does not exist`]);
      return;
    }
    if (end) delete timers[label];
    write('log', [`${label}: ${now() - start} ms`]);
  };
  const noop = (): void => undefined;
  const console = {
    log: logger('log'),
    info: logger('info'),
    warn: logger('warn'),
    error: logger('error'),
    debug: logger('debug'),
    trace: logger('log'),
    dir: logger('log'),
    table: logger('log'),
    group: logger('log'),
    groupCollapsed: logger('log'),
    groupEnd: noop,
    clear: noop,
    assert(condition?: unknown, ...values: unknown[]): void {
      if (!condition) write('error', ['Assertion failed:', ...values]);
    },
    time(label = 'default'): void {
      timers[label] = now();
    },
    timeLog(label = 'default'): void {
      elapsed(label, false);
    },
    timeEnd(label = 'default'): void {
      elapsed(label, true);
    },
    count(label = 'default'): void {
      counts[label] = (counts[label] ?? 0) + 1;
      write('log', [`${label}: ${counts[label]}`]);
    },
    countReset(label = 'default'): void {
      delete counts[label];
    },
  };

  interface Timer {
    callback: unknown;
    values: unknown[];
    repeat: number | undefined;
  }
  const scheduled: Record<number, Timer> = {};
  let nextTimer = 0;
  const delayOf = (value: unknown): number => {
    const delay = toNumber(value);
    return delay > 0 ? delay : 0;
  };
  const addTimer = (callback: unknown, delay: unknown, values: unknown[], repeat: boolean) => {
    nextTimer += 1;
    const milliseconds = delayOf(delay);
    scheduled[nextTimer] = { callback, values, repeat: repeat ? milliseconds : undefined };
    host.schedule(nextTimer, milliseconds);
    return nextTimer;
  };
  const clearTimer = (id: unknown): void => {
    const key = toNumber(id);
    if (scheduled[key] === undefined) return;
    delete scheduled[key];
    host.cancel(key);
  };

  const globals: Record<string, unknown> = {
    console,
    setTimeout: (callback: unknown, delay?: unknown, ...values: unknown[]) =>
      addTimer(callback, delay, values, false),
    setInterval: (callback: unknown, delay?: unknown, ...values: unknown[]) =>
      addTimer(callback, delay, values, true),
    clearTimeout: clearTimer,
    clearInterval: clearTimer,
    queueMicrotask: (callback: () => void) => {
      void apply(then, resolved, [callback]);
    },
  };
  const hostFetch = host.fetch;
  if (typeof hostFetch === 'function') {
    interface Answer {
      url: string;
      status: number;
      statusText: string;
      headers: Record<string, string>;
      body: string;
    }
    globals.fetch = async (
      input: unknown,
      init?: { method?: unknown; headers?: unknown; body?: unknown },
    ) => {
      const options = init ?? {};
      const headers: Record<string, string> = {};
      if (options.headers !== null && typeof options.headers === 'object') {
        const given = options.headers as Record<string, unknown>;
        for (const key of ownKeys(given)) headers[key] = toText(given[key]);
      }
      const method = options.method === undefined ? 'GET' : toText(options.method);
      const body =
        options.body === undefined || options.body === null ? undefined : toText(options.body);
      const answer = parse(
        await hostFetch(toText(input), method, stringify(headers), body),
      ) as Answer;
      const byName: Record<string, string> = {};
      for (const key of ownKeys(answer.headers))
        byName[key.toLowerCase()] = answer.headers[key] ?? '';
      return {
        url: answer.url,
        status: answer.status,
        statusText: answer.statusText,
        ok: answer.status >= 200 && answer.status < 300,
        headers: {
          get: (name: unknown) => byName[toText(name).toLowerCase()] ?? null,
          has: (name: unknown) => byName[toText(name).toLowerCase()] !== undefined,
        },
        text: () => Promise.resolve(answer.body),
        json: () => Promise.resolve().then(() => parse(answer.body) as unknown),
      };
    };
  }
  for (const name of ownKeys(globals)) {
    defineProperty(globalThis, name, { value: globals[name], writable: true, configurable: true });
  }

  const marker = '/*body*/';
  const header = apply(toSource, new AsyncFunction(marker), []);
  let headerLines = 0;
  for (let index = 0; index < header.indexOf(marker); index += 1) {
    if (header[index] === '\n') headerLines += 1;
  }

  let pending = '';
  return {
    headerLines,
    compile: (body) => new AsyncFunction(body),
    fire(id) {
      const timer = scheduled[id];
      if (timer === undefined) return;
      if (timer.repeat === undefined) delete scheduled[id];
      else host.schedule(id, timer.repeat);
      try {
        if (typeof timer.callback === 'function') apply(timer.callback, undefined, timer.values);
      } catch (error) {
        write('error', ['Uncaught', error]);
      }
    },
    serialize(value, limit) {
      const safe = json.limited(value, limit);
      if (safe === undefined) return -1;
      pending = stringify(safe);
      return pending.length + json.stringsCut();
    },
    take: (count) => cut(pending, count),
    describe(thrown) {
      if (json.isError(thrown)) {
        let stack: unknown;
        try {
          stack = thrown.stack;
        } catch {
          stack = undefined;
        }
        return stringify({
          name: formatForLog(thrown.name),
          message: formatForLog(thrown.message),
          ...(typeof stack === 'string' ? { stack } : {}),
        });
      }
      return stringify({ name: 'Uncaught', message: formatForLog(thrown) });
    },
  };
}
