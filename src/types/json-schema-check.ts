import { Validator, type OutputUnit, type SchemaDraft } from '@cfworker/json-schema';

/** A JSON Schema object, as sent to the model and as used to check stored data. */
export type JsonSchema = Record<string, unknown>;

/** One reason a value failed a schema: where (`['messages', 3, 'role']`) and what. */
export interface SchemaIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** The result of a check: the value, typed, or the issues found. */
export type Checked<T> = { success: true; data: T } | { success: false; issues: SchemaIssue[] };

/** A check of unknown data against one schema. */
export type Check<T> = (value: unknown) => Checked<T>;

// Errors that only say "a child failed": the child's own error says what, and where.
const WRAPPERS = new Set(['properties', 'items', 'prefixItems', 'additionalItems', 'allOf', '$ref',
  'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'then', 'else', 'if']);

/**
 * Compiles `schema` on first use (so defining a check at module level costs nothing until it
 * runs) and returns a check of unknown data against it, with every failing path. One small JSON
 * Schema validator (`@cfworker/json-schema`, no `eval`, so it runs under a strict CSP) checks tool
 * inputs and stored data alike, so a page ships no schema library it did not ask for.
 *
 * `T` is the caller's claim of what the schema describes: keep the two side by side.
 */
export function jsonSchemaCheck<T>(schema: JsonSchema): Check<T> {
  let validator: Validator | undefined;
  return (value) => {
    validator ??= compileJsonSchema(schema);
    let result: ReturnType<Validator['validate']>;
    try {
      result = validator.validate(value);
    } catch (error) {
      // The validator throws on values JSON has no type for (`undefined` in an array, read back
      // from IndexedDB): such a value does not match, it must not break the caller.
      return { success: false, issues: [{ path: [], message: String(error) }] };
    }
    // The validator accepted the value against the schema that `T` describes.
    if (result.valid) return { success: true, data: value as T };
    return { success: false, issues: toIssues(result.errors) };
  };
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
  const base = parent.keyword === 'if' ? parent.keywordLocation.slice(0, -'/if'.length) : parent.keywordLocation;
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

/** `messages.3.role: …; title: …` — the first `limit` issues, one clause each, for error messages. */
export function describeIssues(issues: readonly SchemaIssue[], prefix = '', limit = 5): string {
  return issues
    .slice(0, limit)
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
