import * as v from 'valibot';
import { AgentError } from '../errors/agent-error.js';
import type { ContextSummary } from '../types/context-summary.js';
import { contextSummarySchema } from '../types/message-schema.js';
import { describeIssues } from '../types/schema-check.js';
import { valibotCheck } from '../types/valibot-check.js';

// Loaded with the first summary written or read: a store whose conversations were never
// compacted does not ship these checks. Imports only what lazy code may share with the first
// load (test/size/first-load-files.test.ts).

const checkSummary = valibotCheck<ContextSummary>(contextSummarySchema);
const checkSummaries = valibotCheck<ContextSummary[]>(v.array(contextSummarySchema));

/**
 * A summary given to `addSummary`, checked and copied.
 * @throws AgentError `VALIDATION_FAILED` naming the first invalid field.
 */
export function checkedSummary(summary: unknown): ContextSummary {
  const checked = checkSummary(summary);
  if (checked.success) return checked.data;
  throw new AgentError(
    'VALIDATION_FAILED',
    `Cannot store this summary: ${describeIssues(checked.issues, 'summary')}.`,
  );
}

/** The stored summaries, or none when what is stored does not validate (reported once). */
export function readStoredSummaries(
  value: unknown,
  conversationId: string,
): ContextSummary[] | undefined {
  if (value === undefined) return undefined;
  const checked = checkSummaries(value);
  if (checked.success) return checked.data;
  console.warn(
    `STORAGE_FAILED: the summaries of stored conversation "${conversationId}" are damaged; left out.`,
  );
  return undefined;
}
