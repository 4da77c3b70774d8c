import { isRecord } from '../types/is-record.js';
import type { JsonSchema } from './tool.js';

/**
 * Repairs what small local models get wrong in tool arguments when the tool's JSON Schema
 * gives the fix one obvious meaning — and nothing else:
 *
 * - `"5"` → `5` where a number (or integer) is expected, `"true"` / `"false"` (`"True"` /
 *   `"False"` too) → booleans;
 * - `"null"` / `"None"` where no string fits → `null`;
 * - `null` for an optional field that does not allow `null` → the field is left out;
 * - a JSON-encoded string where an object or array is expected → the parsed value;
 * - a single value where an array is expected → `[value]` (when it fits the items).
 *
 * Fields and array items are repaired the same way, at any depth. Fields the schema does
 * not describe are left alone. Pure: `input` is not changed.
 *
 * @returns the repaired input, or `undefined` when nothing needed (or allowed) a repair.
 * @example
 * repairToolInput({ a: '5', tags: 'x' }, { type: 'object', properties: { a: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } } });
 * // { a: 5, tags: ['x'] }
 */
export function repairToolInput(
  input: Record<string, unknown>,
  schema: JsonSchema,
): Record<string, unknown> | undefined {
  return repairObject(input, schema);
}

/** A repaired value; `undefined` means "unchanged". */
type Repair = { value: unknown } | undefined;

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function repairObject(
  input: Record<string, unknown>,
  schema: unknown,
): Record<string, unknown> | undefined {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(
    isRecord(schema) && Array.isArray(schema.required) ? (schema.required as unknown[]) : [],
  ); // elements only compared with keys
  let repaired: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(input)) {
    if (!Object.hasOwn(properties, key)) continue;
    const fieldSchema = properties[key];
    if ((value === null || isNullText(value, fieldSchema)) && !required.has(key)) {
      const types = typesOf(fieldSchema);
      if (types !== undefined && !types.has('null')) {
        repaired ??= { ...input };
        delete repaired[key];
        continue;
      }
    }
    const fixed = repairValue(value, fieldSchema);
    if (fixed !== undefined) (repaired ??= { ...input })[key] = fixed.value;
  }
  return repaired;
}

function repairArray(input: readonly unknown[], schema: unknown): unknown[] | undefined {
  const items = isRecord(schema) ? schema.items : undefined;
  let repaired: unknown[] | undefined;
  input.forEach((item, index) => {
    const fixed = repairValue(item, items);
    if (fixed !== undefined) (repaired ??= [...input])[index] = fixed.value;
  });
  return repaired;
}

function repairValue(value: unknown, schema: unknown): Repair {
  const types = typesOf(schema);
  if (types === undefined) return undefined;
  if (types.has('null') && isNullText(value, schema)) return { value: null };
  if (fits(value, types)) return repairInside(value, schema);
  if (typeof value === 'string') {
    const fixed = repairString(value.trim(), types, schema);
    if (fixed !== undefined) return fixed;
  }
  if (types.has('array') && value !== null && value !== undefined && !Array.isArray(value)) {
    const items = branch(schema, 'array').items;
    const itemTypes = typesOf(items);
    const item = repairValue(value, items)?.value ?? value;
    if (itemTypes === undefined || fits(item, itemTypes)) return { value: [item] };
  }
  return undefined;
}

function repairString(text: string, types: ReadonlySet<string>, schema: unknown): Repair {
  if ((types.has('number') || types.has('integer')) && NUMBER.test(text)) {
    const number = Number(text);
    if (types.has('number') || Number.isInteger(number)) return { value: number };
  }
  // `True` / `False`: Python's str() form, which Qwen3.5's and Seed-OSS's templates teach.
  const lower = text.toLowerCase();
  if (types.has('boolean') && (lower === 'true' || lower === 'false')) {
    return { value: lower === 'true' };
  }
  if (
    (types.has('object') || types.has('array')) &&
    (text.startsWith('{') || text.startsWith('['))
  ) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (isRecord(parsed) ? types.has('object') : Array.isArray(parsed) && types.has('array'))
      return { value: repairInside(parsed, schema)?.value ?? parsed };
  }
  return undefined;
}

/** Repairs the fields or items of a value that already has a right type. */
function repairInside(value: unknown, schema: unknown): Repair {
  if (isRecord(value)) {
    const fixed = repairObject(value, branch(schema, 'object'));
    return fixed === undefined ? undefined : { value: fixed };
  }
  if (Array.isArray(value)) {
    const fixed = repairArray(value, branch(schema, 'array'));
    return fixed === undefined ? undefined : { value: fixed };
  }
  return undefined;
}

/**
 * `"null"` or Python's `"None"` where no string fits: the null that XML call forms (Qwen3.5,
 * Seed-OSS, as vLLM's qwen3_coder and seed_oss parsers read them) can only write as text.
 */
function isNullText(value: unknown, schema: unknown): boolean {
  if (typeof value !== 'string') return false;
  const text = value.trim();
  return (text === 'None' || text === 'null') && typesOf(schema)?.has('string') === false;
}

function fits(value: unknown, types: ReadonlySet<string>): boolean {
  if (typeof value === 'string') return types.has('string');
  if (typeof value === 'number')
    return types.has('number') || (types.has('integer') && Number.isInteger(value));
  if (typeof value === 'boolean') return types.has('boolean');
  if (value === null) return types.has('null');
  if (Array.isArray(value)) return types.has('array');
  return isRecord(value) && types.has('object');
}

/**
 * The JSON types a schema allows (`type`, a list of types, or `anyOf`/`oneOf` of such, as
 * zod writes nullable fields); `undefined` when it does not say (no repair then).
 */
function typesOf(schema: unknown): ReadonlySet<string> | undefined {
  if (!isRecord(schema)) return undefined;
  const type = schema.type;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((entry) => typeof entry === 'string'));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(alternatives)) return undefined;
  const types = new Set<string>();
  for (const alternative of alternatives) {
    const inner = typesOf(alternative);
    if (inner === undefined) return undefined;
    for (const entry of inner) types.add(entry);
  }
  return types;
}

/** The part of a schema (itself, or one of its `anyOf`/`oneOf`) that describes `type`. */
function branch(schema: unknown, type: string): Record<string, unknown> {
  if (!isRecord(schema)) return {};
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(alternatives)) return schema;
  for (const alternative of alternatives) {
    if (typesOf(alternative)?.has(type) === true && isRecord(alternative)) return alternative;
  }
  return schema;
}
