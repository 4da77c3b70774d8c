import * as z from 'zod/mini';
import { pausedStateSchema } from './message-schema.js';

/**
 * Key layout of the one object store. Array keys sort element by element, so all pages of a
 * conversation form one contiguous key range, read in order by one `getAll`:
 *
 * - `['c', conversationId]` → {@link ConversationRecord}
 * - `['m', conversationId, page]` → `Message[]`, a page of consecutive messages (see
 *   `fillPages`). Page numbers are allocated inside the transaction that writes them, so two
 *   tabs never take the same one (IndexedDB runs overlapping readwrite transactions one after
 *   the other).
 */
const CONVERSATION = 'c';
const PAGE = 'm';

/** The stored head of a conversation: everything but its messages. */
export const conversationRecordSchema = z.object({
  id: z.string(),
  /** `''` until the first user message or a rename gives one. */
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  messageCount: z.int().check(z.nonnegative()),
  /** Pages stored so far: the last one, `pageCount - 1`, is where appends go. */
  pageCount: z.int().check(z.nonnegative()),
  pending: z.exactOptional(pausedStateSchema),
});

/** The stored head of a conversation. */
export type ConversationRecord = z.infer<typeof conversationRecordSchema>;

/** The key of a conversation's record. */
export function conversationKey(conversationId: string): IDBValidKey {
  return [CONVERSATION, conversationId];
}

/** The key of page number `page` of a conversation. */
export function pageKey(conversationId: string, page: number): IDBValidKey {
  return [PAGE, conversationId, page];
}

/** Every page of a conversation, in order. An array sorts after any number. */
export function pageRange(KeyRange: typeof IDBKeyRange, conversationId: string): IDBKeyRange {
  return KeyRange.bound([PAGE, conversationId], [PAGE, conversationId, []]);
}

/** Every conversation record. An array sorts after any string. */
export function conversationRange(KeyRange: typeof IDBKeyRange): IDBKeyRange {
  return KeyRange.bound([CONVERSATION], [CONVERSATION, []]);
}
