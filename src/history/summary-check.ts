import * as v from 'valibot';
import { AgentError } from '../errors/agent-error.js';
import type { ContextSummary } from '../types/context-summary.js';
import { contextSummarySchema } from '../types/context-summary-schema.js';
import { describeIssues } from '../types/schema-check.js';
import { valibotCheck } from '../types/valibot-check.js';
import { request } from './idb-transaction.js';
import { summariesKey } from './idb-summaries.js';
import { conversationKey } from './idb-records.js';
import { unknownConversation } from './history-errors.js';

// Loaded with the first summary written or read: a store whose conversations were never
// compacted does not ship these checks.

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
export function readStoredSummaries(value: unknown, conversationId: string): ContextSummary[] | undefined {
  if (value === undefined) return undefined;
  const checked = checkSummaries(value);
  if (checked.success) return checked.data;
  console.warn(`STORAGE_FAILED: the summaries of stored conversation "${conversationId}" are damaged; left out.`);
  return undefined;
}

/**
 * Adds `summary` to the conversation's summaries, inside the caller's transaction.
 * @throws AgentError `VALIDATION_FAILED` for an unknown conversation.
 */
export async function putSummary(
  objectStore: IDBObjectStore,
  conversationId: string,
  summary: ContextSummary,
): Promise<void> {
  if ((await request(objectStore.getKey(conversationKey(conversationId)))) === undefined)
    throw unknownConversation(conversationId);
  const key = summariesKey(conversationId);
  const stored = readStoredSummaries(await request(objectStore.get(key)), conversationId) ?? [];
  objectStore.put([...stored, summary], key);
}
