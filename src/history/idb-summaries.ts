/**
 * `['s', conversationId]` → `ContextSummary[]`, the summaries `contextPolicy: 'summarize'` wrote
 * (absent when none: a conversation never compacted reads and writes nothing more). Checked by
 * summary-check.ts, loaded when there is one.
 */
export function summariesKey(conversationId: string): IDBValidKey {
  return ['s', conversationId];
}
