import type { Message } from '../types/message.js';
import { fillPages } from './fill-pages.js';
import { pageKey, type ConversationRecord } from './idb-records.js';
import { request } from './idb-transaction.js';
import { checkMessages } from '../types/message-schema.js';

/**
 * Adds `messages` after a conversation's stored ones, inside the caller's readwrite
 * transaction: reads and rewrites only the last page (if it has room) and adds new pages, so the
 * cost does not depend on how many messages are stored. Returns the record's new counts; the
 * caller writes the record in the same transaction.
 */
export async function appendPages(
  objectStore: IDBObjectStore,
  record: ConversationRecord,
  messages: readonly Message[],
): Promise<Pick<ConversationRecord, 'messageCount' | 'pageCount'>> {
  const { id, pageCount } = record;
  let first = pageCount;
  let last: Message[] = [];
  if (pageCount > 0) {
    const stored = checkMessages(await request(objectStore.get(pageKey(id, pageCount - 1))));
    // A corrupt last page is left as it is (load reports it); new messages start a new page.
    if (stored.success) {
      first = pageCount - 1;
      last = stored.data;
    }
  }
  const pages = fillPages(last, messages);
  pages.forEach((page, index) => {
    // The last page comes back unchanged when it was full: no need to rewrite it.
    if (index > 0 || page.length !== last.length) objectStore.put(page, pageKey(id, first + index));
  });
  return { messageCount: record.messageCount + messages.length, pageCount: first + pages.length };
}

/** Writes a whole conversation's messages as pages 0, 1, 2…; returns the page count. */
export function writeAllPages(
  objectStore: IDBObjectStore,
  conversationId: string,
  messages: readonly Message[],
): number {
  if (messages.length === 0) return 0;
  const pages = fillPages([], messages);
  pages.forEach((page, index) => objectStore.put(page, pageKey(conversationId, index)));
  return pages.length;
}
