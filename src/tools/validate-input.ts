import { describeIssues, type Checked } from '../types/schema-check.js';
import { isRecord } from '../types/is-record.js';

/** The result of checking a tool's input. */
export type InputValidation =
  { success: true; value: Record<string, unknown> } | { success: false; error: string };

/** Checks raw model arguments; never throws. */
export type InputValidator = (input: unknown) => InputValidation;

/**
 * Checks `input` with a tool's schema. The error message names the tool and every failing
 * path, so the model can fix its call: `Tool "add" received invalid input: a: expected number`.
 */
export function validateInput(
  toolName: string,
  check: (input: unknown) => Checked<unknown>,
  input: unknown,
): InputValidation {
  const result = check(input);
  if (result.success) {
    const value = result.data;
    if (isRecord(value)) return { success: true, value };
    return {
      success: false,
      error: `Tool "${toolName}" received invalid input: expected an object`,
    };
  }
  return {
    success: false,
    error: `Tool "${toolName}" received invalid input: ${describeIssues(result.issues, '', 10)}`,
  };
}
