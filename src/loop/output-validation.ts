import type * as z from 'zod/mini';
import { errorMessage } from '../errors/agent-error.js';
import { safeParse } from '../types/safe-parse.js';
import type { Validator } from './define-agent.js';

/** An output that passed every check (`value` is the schema's parsed output), or why not. */
export type OutputValidation<Output> = { ok: true; value: Output } | { ok: false; message: string };

/**
 * Checks a candidate output: the schema first, then each validator in order on the parsed
 * value. The first failure wins; its message is written for the model to act on. Never throws.
 */
export async function validateOutput<Output>(
  candidate: Record<string, unknown>,
  checks: { schema: z.core.$ZodType<Output>; validators: readonly Validator<Output>[] },
): Promise<OutputValidation<Output>> {
  const parsed = safeParse(checks.schema, candidate);
  if (!parsed.success)
    return {
      ok: false,
      message: `The output does not match the schema: ${schemaIssues(parsed.error)}`,
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

/** zod's issues as one line naming each failing path: `email: Invalid email address; age: …`. */
export function schemaIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
}
