import type { Check, JsonSchema, SchemaIssue } from './schema-check.js';

// The schema most tools have — an object whose properties each have a simple `type` and/or an
// `enum` of plain values, with `required` and a boolean `additionalProperties` — is checked here,
// in the first load, so such a tool never downloads the JSON Schema validator (~7 kB gzipped).
// Its verdicts and issues are the validator's (json-schema-validator.ts, with every error
// reported), word for word: test/types/flat-json-schema-check.property.test.ts compares the two.

/** Keywords that constrain nothing (annotations). */
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples', 'default', '$schema']);
const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

interface PropertyRule {
  type: string | undefined;
  enum: readonly unknown[] | undefined;
}

/**
 * A check of `schema` without the JSON Schema validator, for a flat object schema (above);
 * `undefined` for every other schema, which the validator checks.
 */
export function flatJsonSchemaCheck<T>(schema: JsonSchema): Check<T> | undefined {
  const { type, properties = {}, required = [], additionalProperties = true, ...rest } = schema;
  if (type !== 'object' || !isObject(properties) || typeof additionalProperties !== 'boolean')
    return undefined;
  if (!Array.isArray(required) || !required.every((key) => typeof key === 'string'))
    return undefined;
  if (!onlyAnnotations(rest)) return undefined;
  const rules = new Map<string, PropertyRule>();
  for (const [key, property] of Object.entries(properties)) {
    const rule = isObject(property) ? propertyRule(property) : undefined;
    if (!rule) return undefined;
    rules.set(key, rule);
  }
  const requiredKeys = required as readonly string[];
  // Hot path: once per tool call. Calls only typeOf (once per value) on a valid value.
  return (value) => {
    const type = typeOf(value);
    if (type !== 'object')
      return {
        success: false,
        issues: [type === undefined ? unsupported(value) : typeIssue([], type, 'object')],
      };
    const object = value as Record<string, unknown>;
    const issues: SchemaIssue[] = [];
    for (const key of requiredKeys)
      if (!Object.hasOwn(object, key)) issues.push({ path: [key], message: 'required' });
    for (const [key, rule] of rules) {
      if (!Object.hasOwn(object, key)) continue;
      const property = object[key];
      const propertyType = typeOf(property);
      // The validator throws on a value JSON has no type for: the caller gets that one issue.
      if (propertyType === undefined) return { success: false, issues: [unsupported(property)] };
      const expected = rule.type;
      // `integer` as the validator counts it (Infinity included: it is no fraction).
      if (
        expected !== undefined &&
        propertyType !== expected &&
        !(
          expected === 'integer' &&
          propertyType === 'number' &&
          !((property as number) % 1) &&
          property === property
        )
      )
        issues.push(typeIssue([pathKey(key)], propertyType, expected));
      // `indexOf` compares with `===`, as the validator does.
      if (rule.enum && rule.enum.indexOf(property) < 0)
        issues.push({
          path: [pathKey(key)],
          message: `Instance does not match any of ${JSON.stringify(rule.enum)}`,
        });
    }
    if (!additionalProperties) {
      // Like the validator: every enumerable key, inherited ones too, named at the object's path.
      for (const key in object) {
        if (!(rules.has(key) && Object.hasOwn(object, key)))
          issues.push({
            path: [],
            message: `Property "${key}" does not match additional properties schema`,
          });
      }
    }
    // The validator accepted the value against the schema that `T` describes.
    return issues.length === 0 ? { success: true, data: value as T } : { success: false, issues };
  };
}

function propertyRule(property: Record<string, unknown>): PropertyRule | undefined {
  const { type, enum: values, ...rest } = property;
  if (type === undefined && values === undefined) return undefined;
  if (type !== undefined && !(typeof type === 'string' && SIMPLE_TYPES.has(type))) return undefined;
  if (values !== undefined && !(Array.isArray(values) && values.every(isPlainValue)))
    return undefined;
  if (!onlyAnnotations(rest)) return undefined;
  return { type, enum: values as unknown[] | undefined };
}

/** The JSON type of `value` as the validator names it; `undefined` for values JSON has no type for. */
function typeOf(value: unknown): string | undefined {
  const type = typeof value;
  if (type === 'object') return value === null ? 'null' : Array.isArray(value) ? 'array' : 'object';
  return type === 'boolean' || type === 'number' || type === 'string' ? type : undefined;
}

function typeIssue(path: PropertyKey[], actual: string, expected: string): SchemaIssue {
  return { path, message: `Instance type "${actual}" is invalid. Expected "${expected}"` };
}

function unsupported(value: unknown): SchemaIssue {
  return { path: [], message: `Error: Instances of "${typeof value}" type are not supported.` };
}

/** A property name in an issue's path as the validator's pointer gives it: `"3"` is index 3. */
function pathKey(key: string): PropertyKey {
  return /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key;
}

function onlyAnnotations(keywords: Record<string, unknown>): boolean {
  return Object.keys(keywords).every((keyword) => ANNOTATIONS.has(keyword));
}

function isPlainValue(value: unknown): boolean {
  return SIMPLE_TYPES.has(value === null ? 'null' : typeof value); // typeof never says 'integer'
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
