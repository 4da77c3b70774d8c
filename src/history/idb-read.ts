import type { UseStore } from 'idb-keyval';
import type { Message } from '../types/message.js';
import type { MessageFork } from '../types/message-fork.js';
import { checkMessages } from '../types/message-schema.js';
import type { ConversationSummary, StorageDamage } from './history-store.js';
import { loadedForm } from './idb-image-records.js';
import {
  conversationKey,
  imageRange,
  conversationRange,
  forksKey,
  checkConversationRecord,
  pageRange,
  type ConversationRecord,
} from './idb-records.js';
import { request, transact } from './idb-transaction.js';
import { newestFirst } from './newest-first.js';
import { summariesKey } from './idb-summaries.js';
import type { ContextSummary } from '../types/context-summary.js';
import type * as Salvage from './idb-salvage.js';

type Salvage = typeof Salvage;

/** Where {@link readConversation} and {@link readSummaries} read. */
export interface ReadOptions {
  store: UseStore;
  KeyRange: typeof IDBKeyRange;
}

/** The lazily loaded repair code (idb-salvage.ts), once some stored data needed it. */
let salvage: Salvage | undefined;
const NEEDS_SALVAGE = new Error('A stored record needs repair.');

/**
 * Runs `operation` (one transaction); when it found a damaged record before the repair code was
 * loaded, loads it and runs `operation` again. A transaction cannot await an `import()` (it would
 * auto-commit), so the first run aborts, having written nothing.
 */
export async function withSalvage<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error !== NEEDS_SALVAGE) throw error;
    salvage = await import('./idb-salvage.js');
    return operation();
  }
}

/**
 * A conversation's record inside a readwrite transaction, rebuilt from its pages when it does not
 * validate (run under {@link withSalvage}); `undefined` when absent.
 */
export async function storedRecord(
  objectStore: IDBObjectStore,
  options: { conversationId: string; KeyRange: typeof IDBKeyRange },
): Promise<ConversationRecord | undefined> {
  const value = await request(objectStore.get(conversationKey(options.conversationId)));
  if (value === undefined) return undefined;
  const checked = checkConversationRecord(value);
  if (checked.success) return checked.data;
  if (!salvage) throw NEEDS_SALVAGE;
  const { conversationId } = options;
  const range = pageRange(options.KeyRange, conversationId);
  return salvage.repairRecord(objectStore, { value, conversationId, range, checkMessages });
}

/**
 * A conversation's record and all its messages in order, in one read transaction: one `get` and
 * one `getAll` over the conversation's pages, whatever its length. What does not validate is
 * left out (and reported once): a damaged page or record never hides the rest.
 */
export async function readConversation(options: ReadOptions & { conversationId: string }): Promise<
  | {
      record: ConversationRecord;
      messages: Message[];
      forks?: MessageFork[];
      summaries?: ContextSummary[];
      damage?: StorageDamage;
    }
  | undefined
> {
  const { store, KeyRange, conversationId } = options;
  const pages = pageRange(KeyRange, conversationId);
  const [value, pageValues, lastPage, images, forkValue, summaryValue] = await transact(
    store,
    'readonly',
    (objectStore) =>
      Promise.all([
        request(objectStore.get(conversationKey(conversationId))),
        request(objectStore.getAll(pages)),
        request(objectStore.openKeyCursor(pages, 'prev')),
        request(objectStore.getAll(imageRange(KeyRange, conversationId))),
        request(objectStore.get(forksKey(conversationId))),
        request(objectStore.get(summariesKey(conversationId))),
      ]),
  );
  if (value === undefined) return undefined;
  // openKeyCursor's request yields a cursor or null; page keys are ['m', id, number].
  const lastKey: unknown = (lastPage as IDBCursor | null)?.key;
  const lastNumber: unknown = Array.isArray(lastKey) ? lastKey[2] : undefined;
  const pageCount = typeof lastNumber === 'number' ? lastNumber + 1 : 0;
  const found = await readMessages(value, pageValues, { conversationId, pageCount });
  const read = { ...found, messages: await loadedForm(found.messages, images) };
  const summaries =
    summaryValue === undefined
      ? undefined
      : (await import('./summary-check.js')).readStoredSummaries(summaryValue, conversationId);
  let branchesLost = false;
  let forks: MessageFork[] | undefined;
  if (forkValue !== undefined) {
    const { checkForks } = await import('../types/message-fork-schema.js');
    const checked = checkForks(forkValue, read.messages.length);
    if (checked.success) forks = checked.data;
    else {
      // Forks that do not fit the messages kept are left out: the active branch still loads.
      console.warn(
        `STORAGE_FAILED: the branches of stored conversation "${conversationId}" are damaged; left out.`,
      );
      branchesLost = true;
    }
  }
  const damaged = found.unreadableMessages > 0 || found.recordRepaired || branchesLost;
  return {
    record: read.record,
    messages: read.messages,
    ...(forks === undefined ? {} : { forks }),
    ...(summaries === undefined ? {} : { summaries }),
    ...(damaged
      ? {
          damage: {
            unreadableMessages: found.unreadableMessages,
            recordRepaired: found.recordRepaired,
            branchesLost,
          },
        }
      : {}),
  };
}

/**
 * The record and messages of what was read; what does not validate is left out, and a record
 * whose counts do not match the pages that exist (`pageCount`) is read with the true counts.
 */
async function readMessages(
  value: unknown,
  pageValues: unknown,
  stored: { conversationId: string; pageCount: number },
): Promise<{
  record: ConversationRecord;
  messages: Message[];
  unreadableMessages: number;
  recordRepaired: boolean;
}> {
  const { conversationId, pageCount } = stored;
  const record = checkConversationRecord(value);
  const list = Array.isArray(pageValues) ? (pageValues as unknown[]) : [];
  // What the pages hold, readable or not (a page that is not a list counts as one).
  const messageCount = list.reduce(
    (total: number, page) => total + (Array.isArray(page) ? page.length : 1),
    0,
  );
  // getAll gives an array; its pages are checked as one list, the common case: all valid.
  const messages = checkMessages(list.every(Array.isArray) && (list as unknown[][]).flat());
  const countsRight =
    record.success &&
    record.data.pageCount === pageCount &&
    record.data.messageCount === messageCount;
  if (countsRight && messages.success) {
    return {
      record: record.data,
      messages: messages.data,
      unreadableMessages: 0,
      recordRepaired: false,
    };
  }
  salvage ??= await import('./idb-salvage.js');
  const kept = messages.success
    ? { messages: messages.data, lost: 0 }
    : salvage.salvageMessages(pageValues, conversationId, checkMessages);
  return {
    record: record.success
      ? { ...record.data, pageCount, messageCount }
      : salvage.salvageRecord(value, conversationId, { messageCount, pageCount }),
    messages: kept.messages,
    unreadableMessages: kept.lost,
    recordRepaired: !countsRight,
  };
}

/**
 * Every conversation's summary, newest first, from one `getAll` over the records (no message is
 * read). A record that does not validate is left out rather than hiding every other one; one
 * with no title gets `untitled`.
 */
export async function readSummaries(
  options: ReadOptions & { untitled: string },
): Promise<ConversationSummary[]> {
  const values = await transact(options.store, 'readonly', (objectStore) =>
    request(objectStore.getAll(conversationRange(options.KeyRange))),
  );
  const summaries: ConversationSummary[] = [];
  for (const value of Array.isArray(values) ? (values as unknown[]) : []) {
    const checked = checkConversationRecord(value);
    if (!checked.success) continue;
    const { id, title, createdAt, updatedAt, messageCount } = checked.data;
    summaries.push({ id, title: title || options.untitled, createdAt, updatedAt, messageCount });
  }
  return summaries.sort(newestFirst);
}
