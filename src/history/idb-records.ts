import * as v from 'valibot';
import { valibotCheck } from '../types/valibot-check.js';
import type { PausedState } from './history-store.js';
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
export interface ConversationRecord {
  id: string;
  /** `''` until the first user message or a rename gives one. */
  title: string;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  /** Pages stored so far: the last one, `pageCount - 1`, is where appends go. */
  pageCount: number;
  pending?: PausedState;
}

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Checks a {@link ConversationRecord} read back from storage. */
export const checkConversationRecord = valibotCheck<ConversationRecord>(
  v.looseObject({
    id: v.string(),
    title: v.string(),
    createdAt: v.number(),
    updatedAt: v.number(),
    messageCount: count,
    pageCount: count,
    pending: v.optional(pausedStateSchema),
  }),
);

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
