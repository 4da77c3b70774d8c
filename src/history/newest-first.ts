import type { ConversationSummary } from './history-store.js';

/** `list()` order: newest `updatedAt` first; ties by id, so the order is stable. */
export function newestFirst(a: ConversationSummary, b: ConversationSummary): number {
  return b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
