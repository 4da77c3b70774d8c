import { check, pipe, safeParse, unknown, type BaseIssue, type GenericSchema } from 'valibot';
import { isRecord } from './is-record.js';
import type { Check, SchemaIssue } from './schema-check.js';

/**
 * A synchronous check of unknown data against one of our own fixed shapes (stored messages,
 * snapshots, IndexedDB records, channel messages, conversation files), written with valibot:
 * modular, so a page ships only the few checks these shapes use (~3 kB gzipped, against ~6.4 kB
 * for a whole JSON Schema validator, which now loads only to check a user's JSON Schema).
 *
 * `T` is the caller's claim of what the schema describes: keep the two side by side. The value
 * checked is returned as is (the schemas are loose: unknown fields are kept, as JSON Schema does).
 */
export function valibotCheck<T>(schema: GenericSchema): Check<T> {
  return (value) => {
    const result = safeParse(schema, value);
    // The schema accepted the value, and it describes `T`.
    if (result.success) return { success: true, data: value as T };
    return { success: false, issues: result.issues.map(toIssue) };
  };
}

/** A JSON object (not an array, not `null`): JSON Schema's `{ type: 'object' }`. */
export const jsonObjectSchema = pipe(unknown(), check(isRecord, 'expected an object'));

function toIssue(issue: BaseIssue<unknown>): SchemaIssue {
  const path = (issue.path ?? []).map((item) => item.key as PropertyKey);
  // A missing key (`Invalid key: Expected "x" but received undefined`) reads `x: required`.
  if (issue.received === 'undefined' && issue.expected === `"${String(path.at(-1))}"`) {
    return { path, message: 'required' };
  }
  if (issue.expected === null) return { path, message: issue.message };
  return { path, message: `expected ${issue.expected}, received ${issue.received}` };
}
