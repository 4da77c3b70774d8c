/** Beyond this depth objects are shown as `[Object]` / `[Array(n)]`. */
const MAX_DEPTH = 12;
/** Items per array/Map/Set and keys per object kept; the rest is summarised. */
const MAX_ENTRIES = 1000;

/**
 * Turns any value the model's code produced into one `JSON.stringify` renders faithfully,
 * as a reader would want to see it: `undefined` stays `undefined` at the top (no result),
 * `NaN`/`Infinity`/bigint/symbol/functions become descriptive strings, Dates ISO strings,
 * Maps `[key, value]` pairs, Sets arrays, Errors `{ name, message }`, cycles `[Circular]`.
 * Never throws: a throwing getter or proxy trap becomes `[Unserializable: …]`.
 */
export function toJsonSafe(value: unknown): unknown {
  return convert(value, 0, new Set());
}

function convert(value: unknown, depth: number, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'undefined':
    case 'boolean':
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : String(value);
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return describeFunction(value);
    case 'object':
      if (value === null) return null;
      if (ancestors.has(value)) return '[Circular]';
      ancestors.add(value);
      try {
        return convertObject(value, depth, ancestors);
      } catch (error) {
        return `[Unserializable: ${error instanceof Error ? error.message : String(error)}]`;
      } finally {
        ancestors.delete(value);
      }
  }
}

function convertObject(value: object, depth: number, ancestors: Set<object>): unknown {
  const child = (item: unknown) => convert(item, depth + 1, ancestors);
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof RegExp) return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (value instanceof Promise) return '[Promise]';
  if (value instanceof WeakMap || value instanceof WeakSet) return `[${value.constructor.name}]`;
  if (value instanceof ArrayBuffer) return `[ArrayBuffer(${value.byteLength} bytes)]`;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    if (depth >= MAX_DEPTH) return `[${value.constructor.name}]`;
    // A view that is not a DataView is a typed array: indexed numbers or bigints.
    return limited(Array.from(value as unknown as ArrayLike<unknown>), child);
  }
  if (value instanceof DataView) return `[DataView(${value.byteLength} bytes)]`;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `[Array(${value.length})]` : '[Object]';
  if (Array.isArray(value))
    return limited(value, (item) => (item === undefined ? null : child(item)));
  if (value instanceof Map)
    return limited([...value.entries()], ([key, item]) => [child(key), child(item)]);
  if (value instanceof Set) return limited([...value.values()], child);
  const toJSON = (value as { toJSON?: unknown }).toJSON; // optional by definition; called only if a function
  if (typeof toJSON === 'function') return child(toJSON.call(value));
  const result: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const key of keys.slice(0, MAX_ENTRIES)) {
    const item = child((value as Record<string, unknown>)[key]); // key comes from Object.keys(value)
    if (item !== undefined) result[key] = item;
  }
  if (keys.length > MAX_ENTRIES) result['…'] = `${keys.length - MAX_ENTRIES} more keys`;
  return result;
}

function limited<T>(items: T[], map: (item: T) => unknown): unknown[] {
  const kept = items.slice(0, MAX_ENTRIES).map(map);
  if (items.length > MAX_ENTRIES) kept.push(`… ${items.length - MAX_ENTRIES} more items`);
  return kept;
}

function describeFunction(value: { name: string }): string {
  const source = Function.prototype.toString.call(value);
  if (source.startsWith('class')) return `[class ${value.name || '(anonymous)'}]`;
  return `[Function: ${value.name || '(anonymous)'}]`;
}

/**
 * How console output shows a value: strings as they are, everything else as compact JSON of
 * its {@link toJsonSafe} form (`undefined`, functions and symbols as their description).
 */
export function formatForLog(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  const safe = toJsonSafe(value);
  if (safe === undefined) return 'undefined';
  if (typeof safe === 'string') return safe;
  return JSON.stringify(safe);
}
