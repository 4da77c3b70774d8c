import { Validator, type OutputUnit, type SchemaDraft } from '@cfworker/json-schema';
import type { Check, JsonSchema, SchemaIssue } from './schema-check.js';

// Loaded by `import()` only where a user's JSON Schema beyond the flat kind is checked: tool
// inputs (`Tool.prepare`; flat-json-schema-check.ts checks the flat ones) and structured
// answers. Our own stored shapes are checked by valibot (valibot-check.ts), so a page that never
// checks such a schema never ships this validator (~7 kB gzipped).

// Errors that only say "a child failed": the child's own error says what, and where.
const WRAPPERS = new Set([
  'properties',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  '$ref',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'then',
  'else',
  'if',
]);

/**
 * Compiles `schema` on first use and returns a check of unknown data against it, with every
 * failing path. A small JSON Schema validator (`@cfworker/json-schema`, no `eval`, so it runs
 * under a strict CSP) checks what a user gave as JSON Schema: tool inputs, structured answers.
 *
 * `T` is the caller's claim of what the schema describes: keep the two side by side.
 */
export function jsonSchemaCheck<T>(schema: JsonSchema): Check<T> {
  let check: Check<T> | undefined;
  return (value) => (check ??= compiledJsonSchemaCheck<T>(schema))(value);
}

/**
 * {@link jsonSchemaCheck}, compiled now.
 *
 * @throws Error when the validator cannot read the schema (two subschemas with the same `$id`).
 */
export function compiledJsonSchemaCheck<T>(schema: JsonSchema): Check<T> {
  const validator = compileJsonSchema(schema);
  return (value) => {
    let result: ReturnType<Validator['validate']>;
    try {
      result = validator.validate(value);
    } catch (error) {
      // The validator throws on values JSON has no type for (`undefined` in an array, from a
      // hook's rewrite or a direct caller): such a value does not match, it must not break the caller.
      return { success: false, issues: [{ path: [], message: String(error) }] };
    }
    // The validator accepted the value against the schema that `T` describes.
    if (result.valid) return { success: true, data: value as T };
    return { success: false, issues: toIssues(result.errors) };
  };
}

/** How many compiled schemas {@link sharedJsonSchemaCheck} keeps: more than any page defines. */
const SHARED_KEPT = 256;

/** Compiled checks by the schema's JSON text. */
const shared = new Map<string, Check<unknown>>();

/**
 * {@link compiledJsonSchemaCheck}, compiled once per schema *text* for the whole page: an app
 * that builds a conversation's tools anew (schemas written inline, a new `Client` per chat)
 * compiles each schema once, not once per conversation. Keyed by content, not by object, so two
 * schemas that differ never share a check, and a schema object changed after a compile is
 * compiled again. A JSON Schema is JSON: its text is all of it.
 *
 * @throws Error when the validator cannot read the schema (nothing is kept then).
 * @example
 * const check = sharedJsonSchemaCheck<{ city: string }>(schema);
 * check({ city: 'Oslo' }); // { success: true, data: { city: 'Oslo' } }
 */
export function sharedJsonSchemaCheck<T>(schema: JsonSchema): Check<T> {
  const key = JSON.stringify(schema);
  let check = shared.get(key);
  if (check === undefined) {
    check = compiledJsonSchemaCheck<unknown>(schema);
    // A page that makes schemas without end (generated ones) starts over, rather than grow.
    if (shared.size >= SHARED_KEPT) shared.clear();
    shared.set(key, check);
  }
  // The check was compiled from this very text, which `T` describes.
  return check as Check<T>;
}

/**
 * A validator for `schema`, in the draft its `$schema` names (2020-12 by default: what zod and
 * most tools emit).
 *
 * @throws Error when the validator cannot read the schema (an unresolvable `$ref`, say).
 */
export function compileJsonSchema(schema: JsonSchema): Validator {
  return new Validator(schema, draftOf(schema.$schema), false);
}

function draftOf($schema: unknown): SchemaDraft {
  if (typeof $schema !== 'string') return '2020-12';
  if ($schema.includes('draft-04')) return '4';
  if ($schema.includes('draft-06') || $schema.includes('draft-07')) return '7';
  if ($schema.includes('2019-09')) return '2019-09';
  return '2020-12';
}

function toIssues(errors: readonly OutputUnit[]): SchemaIssue[] {
  const leaves = errors.filter(
    (error) =>
      // `false` is the child of an `additionalProperties: false`, whose own message names the property.
      error.keyword !== 'false' &&
      !(WRAPPERS.has(error.keyword) && errors.some((other) => isBelow(other, error))),
  );
  return leaves.map((error) => {
    const path = pathOf(error.instanceLocation);
    // `Instance does not have required property "x".` → `x: required`, like every other issue.
    const missing = error.keyword === 'required' ? /"(.*)"/.exec(error.error)?.[1] : undefined;
    if (missing !== undefined) return { path: [...path, missing], message: 'required' };
    return { path, message: error.error.replace(/\.$/, '') };
  });
}

function isBelow(error: OutputUnit, parent: OutputUnit): boolean {
  // An `if` fails through its sibling `then`/`else`: their errors are what went wrong.
  const base =
    parent.keyword === 'if'
      ? parent.keywordLocation.slice(0, -'/if'.length)
      : parent.keywordLocation;
  return error !== parent && error.keywordLocation.startsWith(`${base}/`);
}

/** `#/messages/3/role` → `['messages', 3, 'role']` (JSON Pointer, RFC 6901). */
function pathOf(instanceLocation: string): PropertyKey[] {
  return instanceLocation
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => {
      const key = decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
      return /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key;
    });
}
