import * as z from 'zod/mini';

/**
 * `z.safeParse(schema, value)` with English issue messages unless the app configured a locale.
 * Works on any zod v4 schema, classic or `zod/mini`: the functional form needs no methods on
 * the schema, so our own schemas can be `zod/mini` ones, which bundlers tree-shake.
 */
export function safeParse<Schema extends z.core.$ZodType>(
  schema: Schema,
  value: unknown,
): z.core.util.SafeParseResult<z.output<Schema>> {
  useEnglishIssues();
  return z.safeParse(schema, value);
}

/**
 * Sets zod's English messages (`Invalid input: expected string, received number`) as the
 * default locale, unless one is set. zod classic does the same on its first schema; `zod/mini`
 * does not, and every message would read only `Invalid input`. Our messages reach the model (a
 * tool's invalid input) and the user (a corrupt import), so they must say what is wrong. An app's
 * own `z.config(z.locales.xx())` wins, before or after this.
 */
function useEnglishIssues(): void {
  if (!z.config().localeError) z.config(z.locales.en());
}
