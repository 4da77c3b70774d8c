/**
 * How the sandbox shows values the model's code makes — its result, what it logs, what it
 * throws: converted to JSON-safe values (dates, maps, functions, cycles… described) and to
 * log text. Evaluated inside the engine, like `sandboxPrelude` (see sandbox-prelude.ts): its
 * source text runs in each run's fresh QuickJS context, so it must be self-contained — no
 * imports, no references to anything outside its body.
 */

/** What {@link sandboxJsonSafe} gives the prelude. */
export interface JsonSafe {
  /**
   * `value` as a JSON-safe value, with strings longer than `limit` cut (the cut characters
   * counted in {@link JsonSafe.stringsCut}).
   */
  limited(value: unknown, limit: number): unknown;
  /** Characters cut from strings by the last {@link JsonSafe.limited}. */
  stringsCut(): number;
  /** `value` as console text: strings as they are, errors as `name: message`, others as JSON. */
  formatForLog(value: unknown): string;
  /** Whether `value` is an `Error` (of the engine's original `Error`). */
  isError(value: unknown): value is Error;
  /** The first `count` characters of `text`. */
  cut(text: string, count: number): string;
}

// Built-in methods are captured unbound on purpose and called through the captured
// `Reflect.apply`, so that the model's code cannot change what they do by patching prototypes.
/* eslint-disable @typescript-eslint/no-unsafe-function-type, @typescript-eslint/unbound-method */
export function sandboxJsonSafe(): JsonSafe {
  // Captured before the model's code runs: it may replace any of these globals later.
  const apply = Reflect.apply;
  const ownKeys = Object.keys;
  const isArray = Array.isArray;
  const stringify = JSON.stringify;
  const isFinite = Number.isFinite;
  const isView = ArrayBuffer.isView;
  const defineProperty = Object.defineProperty;
  const toSource = Function.prototype.toString;
  const slice = String.prototype.slice;
  const dateTime = Date.prototype.getTime;
  const dateIso = Date.prototype.toISOString;
  const regExpText = RegExp.prototype.toString;
  const symbolText = Symbol.prototype.toString;
  const mapEntries = Map.prototype.entries;
  const setValues = Set.prototype.values;
  const arrayFrom = Array.from;
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
  const MAX_DEPTH = 12;
  const MAX_ENTRIES = 1000;
  /** Set by `limited`: strings longer than this are cut, and the cut characters counted. */
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

  return {
    limited(value, limit) {
      stringLimit = limit;
      stringsCut = 0;
      try {
        return toJsonSafe(value);
      } finally {
        stringLimit = Infinity;
      }
    },
    stringsCut: () => stringsCut,
    formatForLog,
    isError: (value): value is Error =>
      value !== null && typeof value === 'object' && is(value, types.Error),
    cut,
  };
}
