/**
 * The part of the sandbox runtime that lives inside the QuickJS engine, next to the model's
 * code: `console`, timers, compiling the code, and turning its result into JSON text.
 *
 * `sandboxPrelude` is never called in the worker's own realm: its source text
 * (`Function.prototype.toString`) is evaluated in each run's fresh QuickJS context. So it
 * must be self-contained — no imports, no references to anything outside its body, no
 * syntax that a transpiler would lower into helpers — and it sees only what `host` gives it.
 * Everything it hands back to the worker is a string or a number, which the worker checks
 * again (src/worker/sandbox-run.ts): the model's code runs in the same context and may
 * have replaced any built-in by the time these functions run.
 */

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
/* eslint-disable @typescript-eslint/no-unsafe-function-type, @typescript-eslint/unbound-method */
export function sandboxPrelude(host: PreludeHost): PreludeExports {
  // Captured before the model's code runs: it may replace any of these globals later.
  const apply = Reflect.apply;
  const ownKeys = Object.keys;
  const isArray = Array.isArray;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const isFinite = Number.isFinite;
  const isView = ArrayBuffer.isView;
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const toSource = Function.prototype.toString;
  const slice = String.prototype.slice;
  const dateTime = Date.prototype.getTime;
  const dateIso = Date.prototype.toISOString;
  const regExpText = RegExp.prototype.toString;
  const symbolText = Symbol.prototype.toString;
  const mapEntries = Map.prototype.entries;
  const setValues = Set.prototype.values;
  const arrayFrom = Array.from;
  const now = Date.now;
  const toNumber = Number;
  const StringOf = String;
  const toText = (value: unknown): string => StringOf(value);
  const resolved = Promise.resolve();
  const then = Promise.prototype.then;
  // The global bindings can be reassigned by the model's code; these cannot.
  const types = {
    Date,
    RegExp,
    Error,
    Promise,
    WeakMap,
    WeakSet,
    ArrayBuffer,
    DataView,
    Map,
    Set,
  };
  // eslint-disable-next-line @typescript-eslint/require-await -- only its constructor is used
  const asyncArrow = async () => undefined;
  const AsyncFunction = (getPrototypeOf(asyncArrow) as { constructor: unknown })
    .constructor as new (body: string) => () => Promise<unknown>;
  const MAX_DEPTH = 12;
  const MAX_ENTRIES = 1000;
  /** Set by `serialize`: strings longer than this are cut, and the cut characters counted. */
  let stringLimit = Infinity;
  let stringsCut = 0;

  const cut = (text: string, count: number): string => apply(slice, text, [0, count]);
  const is = (value: object, constructor: Function): boolean => {
    try {
      return value instanceof constructor;
    } catch {
      return false;
    }
  };

  const limited = (items: unknown[], map: (item: unknown) => unknown): unknown[] => {
    const kept: unknown[] = [];
    for (let index = 0; index < items.length && index < MAX_ENTRIES; index += 1) {
      kept[index] = map(items[index]);
    }
    if (items.length > MAX_ENTRIES)
      kept[kept.length] = `… ${items.length - MAX_ENTRIES} more items`;
    return kept;
  };

  const describeFunction = (value: Function): string => {
    let source = '';
    try {
      source = apply(toSource, value, []);
    } catch {
      // A proxy of a function: describe it without its source.
    }
    const name = typeof value.name === 'string' && value.name !== '' ? value.name : '(anonymous)';
    return cut(source, 5) === 'class' ? `[class ${name}]` : `[Function: ${name}]`;
  };

  // The same conversion as the old in-worker toJsonSafe: what a reader wants to see.
  const convert = (value: unknown, depth: number, ancestors: unknown[]): unknown => {
    switch (typeof value) {
      case 'undefined':
      case 'boolean':
        return value;
      case 'string':
        if (value.length <= stringLimit) return value;
        stringsCut += value.length - stringLimit;
        return cut(value, stringLimit);
      case 'number':
        return isFinite(value) ? (value === 0 ? 0 : value) : `${value}`;
      case 'bigint':
        return `${value}n`;
      case 'symbol':
        return apply(symbolText, value, []);
      case 'function':
        return describeFunction(value);
      case 'object':
        break;
    }
    if (value === null) return null;
    for (let index = 0; index < ancestors.length; index += 1) {
      if (ancestors[index] === value) return '[Circular]';
    }
    ancestors[ancestors.length] = value;
    try {
      return convertObject(value, depth, ancestors);
    } catch (error) {
      return `[Unserializable: ${is(error as object, types.Error) ? (error as Error).message : typeof error}]`;
    } finally {
      ancestors.length -= 1;
    }
  };

  const convertObject = (value: object, depth: number, ancestors: unknown[]): unknown => {
    const child = (item: unknown) => convert(item, depth + 1, ancestors);
    if (is(value, types.Date)) {
      const time = apply(dateTime, value, []);
      return time === time ? apply(dateIso, value, []) : 'Invalid Date';
    }
    if (is(value, types.RegExp)) return apply(regExpText, value, []);
    if (is(value, types.Error)) {
      const error = value as Error;
      return { name: `${error.name}`, message: `${error.message}` };
    }
    if (is(value, types.Promise)) return '[Promise]';
    if (is(value, types.WeakMap)) return '[WeakMap]';
    if (is(value, types.WeakSet)) return '[WeakSet]';
    if (is(value, types.ArrayBuffer))
      return `[ArrayBuffer(${(value as ArrayBuffer).byteLength} bytes)]`;
    if (is(value, types.DataView)) return `[DataView(${(value as DataView).byteLength} bytes)]`;
    if (isView(value)) {
      if (depth >= MAX_DEPTH) return '[TypedArray]';
      return limited(arrayFrom(value as unknown as ArrayLike<unknown>), child);
    }
    if (depth >= MAX_DEPTH) return isArray(value) ? `[Array(${value.length})]` : '[Object]';
    if (isArray(value)) {
      return limited(value, (item) => (item === undefined ? null : child(item)));
    }
    if (is(value, types.Map)) {
      const pairs = arrayFrom(apply(mapEntries, value, []) as Iterable<[unknown, unknown]>);
      return limited(pairs, (pair) => {
        const [key, item] = pair as [unknown, unknown];
        return [child(key), child(item)];
      });
    }
    if (is(value, types.Set))
      return limited(arrayFrom(apply(setValues, value, []) as Iterable<unknown>), child);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return child(apply(toJSON, value, []));
    const result: Record<string, unknown> = {};
    const keys = ownKeys(value);
    for (let index = 0; index < keys.length && index < MAX_ENTRIES; index += 1) {
      const key = keys[index] as string;
      const item = child((value as Record<string, unknown>)[key]);
      if (item !== undefined) defineProperty(result, key, { value: item, enumerable: true });
    }
    if (keys.length > MAX_ENTRIES) result['…'] = `${keys.length - MAX_ENTRIES} more keys`;
    return result;
  };

  const toJsonSafe = (value: unknown): unknown => convert(value, 0, []);

  const formatForLog = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (value !== null && typeof value === 'object' && is(value, types.Error)) {
      return `${(value as Error).name}: ${(value as Error).message}`;
    }
    const safe = toJsonSafe(value);
    if (safe === undefined) return 'undefined';
    if (typeof safe === 'string') return safe;
    return stringify(safe);
  };

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
      stringLimit = limit;
      stringsCut = 0;
      let safe: unknown;
      try {
        safe = toJsonSafe(value);
      } finally {
        stringLimit = Infinity;
      }
      if (safe === undefined) return -1;
      pending = stringify(safe);
      return pending.length + stringsCut;
    },
    take: (count) => cut(pending, count),
    describe(thrown) {
      if (thrown !== null && typeof thrown === 'object' && is(thrown, types.Error)) {
        let stack: unknown;
        try {
          stack = (thrown as Error).stack;
        } catch {
          stack = undefined;
        }
        return stringify({
          name: formatForLog((thrown as Error).name),
          message: formatForLog((thrown as Error).message),
          ...(typeof stack === 'string' ? { stack } : {}),
        });
      }
      return stringify({ name: 'Uncaught', message: formatForLog(thrown) });
    },
  };
}
