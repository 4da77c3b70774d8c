import type * as z from 'zod/mini';
import { isRecord } from '../types/is-record.js';
import { safeParse } from '../types/safe-parse.js';

/** The result of checking a tool's input. */
export type InputValidation =
  { success: true; value: Record<string, unknown> } | { success: false; error: string };

/** Checks raw model arguments; never throws. */
export type InputValidator = (input: unknown) => InputValidation;

/**
 * Validates `input` with `schema` (any zod v4 schema, classic or `zod/mini`). The error message
 * names the tool and every failing path, so the model can fix its call:
 * `Tool "add" received invalid input: a: expected number`.
 */
export function validateInput(
  toolName: string,
  schema: z.core.$ZodType,
  input: unknown,
): InputValidation {
  const result = safeParse(schema, input);
  if (result.success) {
    const value = result.data;
    if (isRecord(value)) return { success: true, value };
    return {
      success: false,
      error: `Tool "${toolName}" received invalid input: expected an object`,
    };
  }
  const details = result.error.issues
    .map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
  return { success: false, error: `Tool "${toolName}" received invalid input: ${details}` };
}
