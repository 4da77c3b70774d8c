import { errorMessage } from '../errors/agent-error.js';
import { describeIssues, standardValidate, type StandardSchemaV1 } from '../types/schema-check.js';
import type { Validator } from './define-agent.js';

/** An output that passed every check (`value` is the schema's parsed output), or why not. */
export type OutputValidation<Output> = { ok: true; value: Output } | { ok: false; message: string };

/**
 * Checks a candidate output: the schema first, then each validator in order on the parsed
 * value. The first failure wins; its message is written for the model to act on. Never throws.
 */
export async function validateOutput<Output>(
  candidate: Record<string, unknown>,
  checks: { schema: StandardSchemaV1<unknown, Output>; validators: readonly Validator<Output>[] },
): Promise<OutputValidation<Output>> {
  const parsed = standardValidate(checks.schema, candidate);
  if (!parsed.success)
    return {
      ok: false,
      message: `The output does not match the schema: ${describeIssues(parsed.issues, '', 10)}`,
    };
  for (const validator of checks.validators) {
    let message: string | undefined;
    try {
      message = await validator(parsed.data);
    } catch (error) {
      message = errorMessage(error);
    }
    if (message !== undefined) return { ok: false, message };
  }
  return { ok: true, value: parsed.data };
}
