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
