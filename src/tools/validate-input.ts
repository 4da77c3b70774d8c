import { describeIssues, type Checked } from '../types/schema-check.js';

/** The result of checking a tool's input. */
export type InputValidation =
  { success: true; value: Record<string, unknown> } | { success: false; error: string };

/** Checks raw model arguments; never throws. */
export type InputValidator = (input: unknown) => InputValidation;

/**
 * A tool's input check from its schema's `check`. The error message names the tool and every
 * failing path, so the model can fix its call: `Tool "add" received invalid input: a: expected number`.
 */
export function inputValidator(
  toolName: string,
  check: (input: unknown) => Checked<unknown>,
): InputValidator {
  // Hot path: once per tool call, so no call but the check's own.
  return (input) => {
    const result = check(input);
    const value = result.success ? result.data : undefined;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { success: true, value: value as Record<string, unknown> }
      : {
          success: false,
          error: `Tool "${toolName}" received invalid input: ${result.success ? 'expected an object' : describeIssues(result.issues, '', 10)}`,
        };
  };
}
