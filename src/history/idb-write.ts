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
  pages: IDBKeyRange,
): Promise<Pick<ConversationRecord, 'messageCount' | 'pageCount'>> {
  const { id } = record;
  // The record's count is not trusted (a damaged or edited record once made appends overwrite
  // stored pages): the last page that exists decides where new messages go. One key read.
  const pageCount = await pagesStored(objectStore, pages);
  const messageCount =
    pageCount === record.pageCount ? record.messageCount : await messagesStored(objectStore, pages);
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
  const filled = fillPages(last, messages);
  filled.forEach((page, index) => {
    // The last page comes back unchanged when it was full: no need to rewrite it.
    if (index > 0 || page.length !== last.length) objectStore.put(page, pageKey(id, first + index));
  });
  return { messageCount: messageCount + messages.length, pageCount: first + filled.length };
}

/** One more than the number of the last page that exists in `pages` (0 when none does). */
export async function pagesStored(
  objectStore: IDBObjectStore,
  pages: IDBKeyRange,
): Promise<number> {
  // openKeyCursor's request yields a cursor or null.
  const cursor = (await request(objectStore.openKeyCursor(pages, 'prev'))) as IDBCursor | null;
  const key: unknown = cursor?.key;
  const page: unknown = Array.isArray(key) ? key[2] : undefined;
  return typeof page === 'number' ? page + 1 : 0;
}

/**
 * How many messages `pages` hold, readable or not (a page that is not a list counts as one); read
 * only when a record's counts proved wrong.
 */
export async function messagesStored(
  objectStore: IDBObjectStore,
  pages: IDBKeyRange,
): Promise<number> {
  const values: unknown = await request(objectStore.getAll(pages));
  return Array.isArray(values)
    ? values.reduce(
        (total: number, page: unknown) => total + (Array.isArray(page) ? page.length : 1),
        0,
      )
    : 0;
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
