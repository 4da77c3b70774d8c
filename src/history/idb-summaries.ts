import * as v from 'valibot';
import type { ContextSummary } from '../types/context-summary.js';
import { contextSummarySchema } from '../types/context-summary-schema.js';
import { valibotCheck } from '../types/valibot-check.js';
import { request } from './idb-transaction.js';

/**
 * `['s', conversationId]` → `ContextSummary[]`, the summaries `contextPolicy: 'summarize'` wrote
 * (absent when none: a conversation never compacted reads and writes nothing more).
 */
export function summariesKey(conversationId: string): IDBValidKey {
  return ['s', conversationId];
}

const checkSummaries = valibotCheck<ContextSummary[]>(v.array(contextSummarySchema));

/** The stored summaries, or none when what is stored does not validate (reported once). */
export function readStoredSummaries(value: unknown, conversationId: string): ContextSummary[] | undefined {
  if (value === undefined) return undefined;
  const checked = checkSummaries(value);
  if (checked.success) return checked.data;
  console.warn(`STORAGE_FAILED: the summaries of stored conversation "${conversationId}" are damaged; left out.`);
  return undefined;
}

/** Adds `summary` to the conversation's summaries, inside the caller's transaction. */
export async function putSummary(
  objectStore: IDBObjectStore,
  conversationId: string,
  summary: ContextSummary,
): Promise<void> {
  const key = summariesKey(conversationId);
  const stored = readStoredSummaries(await request(objectStore.get(key)), conversationId) ?? [];
  objectStore.put([...stored, summary], key);
}
