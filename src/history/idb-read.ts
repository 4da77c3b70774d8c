import type { UseStore } from 'idb-keyval';
import type { Message } from '../types/message.js';
import type { MessageFork } from '../types/message-fork.js';
import { checkMessages } from '../types/message-schema.js';
import type { ConversationSummary } from './history-store.js';
import { UNTITLED } from './history-store.js';
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
export async function readConversation(
  options: ReadOptions & { conversationId: string },
): Promise<
  | { record: ConversationRecord; messages: Message[]; forks?: MessageFork[]; summaries?: ContextSummary[] }
  | undefined
> {
  const { store, KeyRange, conversationId } = options;
  const [value, pageValues, images, forkValue, summaryValue] = await transact(store, 'readonly', (objectStore) =>
    Promise.all([
      request(objectStore.get(conversationKey(conversationId))),
      request(objectStore.getAll(pageRange(KeyRange, conversationId))),
      request(objectStore.getAll(imageRange(KeyRange, conversationId))),
      request(objectStore.get(forksKey(conversationId))),
      request(objectStore.get(summariesKey(conversationId))),
    ]),
  );
  if (value === undefined) return undefined;
  const found = await readMessages(value, pageValues, conversationId);
  const summaries =
    summaryValue === undefined
      ? undefined
      : (await import('./summary-check.js')).readStoredSummaries(summaryValue, conversationId);
  const read = {
    ...found,
    messages: await loadedForm(found.messages, images),
    ...(summaries === undefined ? {} : { summaries }),
  };
  if (forkValue === undefined) return read;
  const { checkForks } = await import('../types/message-fork-schema.js');
  const forks = checkForks(forkValue, read.messages.length);
  if (forks.success) return { ...read, forks: forks.data };
  // Forks that do not fit the messages kept are left out: the active branch still loads.
  console.warn(`STORAGE_FAILED: the branches of stored conversation "${conversationId}" are damaged; left out.`);
  return read;
}

/** The record and messages of what was read; what does not validate is left out. */
async function readMessages(
  value: unknown,
  pageValues: unknown,
  conversationId: string,
): Promise<{ record: ConversationRecord; messages: Message[] }> {
  const record = checkConversationRecord(value);
  // getAll gives an array; its pages are checked as one list, the common case: all valid.
  const messages = checkMessages(
    (pageValues as unknown[]).every(Array.isArray) && (pageValues as unknown[][]).flat(),
  );
  if (record.success && messages.success) return { record: record.data, messages: messages.data };
  salvage ??= await import('./idb-salvage.js');
  const kept = salvage.salvageMessages(pageValues, conversationId, checkMessages);
  return {
    record: record.success
      ? record.data
      : salvage.salvageRecord(value, conversationId, { messageCount: kept.length, pageCount: 0 }),
    messages: kept,
  };
}

/**
 * Every conversation's summary, newest first, from one `getAll` over the records (no message is
 * read). A record that does not validate is left out rather than hiding every other one.
 */
export async function readSummaries(options: ReadOptions): Promise<ConversationSummary[]> {
  const values = await transact(options.store, 'readonly', (objectStore) =>
    request(objectStore.getAll(conversationRange(options.KeyRange))),
  );
  const summaries: ConversationSummary[] = [];
  for (const value of Array.isArray(values) ? (values as unknown[]) : []) {
    const checked = checkConversationRecord(value);
    if (!checked.success) continue;
    const { id, title, createdAt, updatedAt, messageCount } = checked.data;
    summaries.push({ id, title: title || UNTITLED, createdAt, updatedAt, messageCount });
  }
  return summaries.sort(newestFirst);
}
