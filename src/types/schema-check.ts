// Checking values against schemas: the result every check gives (`Checked`, its issues), and
// Standard Schemas (an app's zod, Valibot…) read into it. One module, because the first load
// and lazily loaded code (structured answers, conversation files) both use these: esbuild would
// give each such module a file of its own in every first load.

/** A JSON Schema object, as sent to the model. */
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

/**
 * The Standard Schema interface (standardschema.dev), v1, with its optional JSON Schema
 * converter: what zod ≥ 4.2 (classic), Valibot, ArkType and others implement. Declared here, as
 * the spec intends, so the runtime depends on no schema library: an app's own schemas are
 * validated by the library that built them.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

/** The `~standard` property of a {@link StandardSchemaV1}. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /** Standard JSON Schema: zod classic ≥ 4.2 has it; `zod/mini` does not. */
  readonly jsonSchema?: {
    readonly input: (options: { readonly target: string }) => JsonSchema;
    readonly output: (options: { readonly target: string }) => JsonSchema;
  };
}

/** What a Standard Schema's `validate` returns. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** One issue of a failed Standard Schema validation. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The output type of a Standard Schema. */
export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<
  Schema['~standard']['types']
>['output'];

/** Whether `value` implements Standard Schema v1. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/**
 * Validates synchronously with the schema's own library. Tool inputs and outputs are checked
 * between two stream events, so a schema that answers with a Promise (an async refinement) is
 * reported as an issue rather than awaited.
 */
export function standardValidate<Output>(
  schema: StandardSchemaV1<unknown, Output>,
  value: unknown,
): Checked<Output> {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) {
    result.catch(() => undefined);
    return {
      success: false,
      issues: [
        { path: [], message: 'the schema is asynchronous; use one that validates synchronously' },
      ],
    };
  }
  if (result.issues === undefined) return { success: true, data: result.value };
  return { success: false, issues: result.issues.map(toIssue) };
}

function toIssue(issue: StandardIssue): SchemaIssue {
  const path = (issue.path ?? []).map((part) => (typeof part === 'object' ? part.key : part));
  // zod/mini sets no locale: its bare "Invalid input" still carries what was expected.
  const expected = (issue as { expected?: unknown }).expected;
  const message =
    typeof expected === 'string' && !issue.message.includes('expected')
      ? `${issue.message}: expected ${expected}`
      : issue.message;
  return { path, message };
}
