import type { UseStore } from 'idb-keyval';
import { AgentError } from '../errors/agent-error.js';
import { describeIssues } from '../types/json-schema-check.js';
import type { Message } from '../types/message.js';
import { checkMessages } from '../types/message-schema.js';
import type { ConversationSummary } from './history-store.js';
import { UNTITLED } from './history-store.js';
import {
  conversationKey,
  conversationRange,
  checkConversationRecord,
  pageRange,
  type ConversationRecord,
} from './idb-records.js';
import { request, transact } from './idb-transaction.js';
import { newestFirst } from './newest-first.js';

/** Where {@link readConversation} and {@link readSummaries} read. */
export interface ReadOptions {
  store: UseStore;
  KeyRange: typeof IDBKeyRange;
}

/**
 * A conversation record read from storage; `undefined` when absent.
 *
 * @throws AgentError `STORAGE_FAILED` when the record is not one we wrote.
 */
export function readRecord(value: unknown): ConversationRecord | undefined {
  if (value === undefined) return undefined;
  const checked = checkConversationRecord(value);
  if (checked.success) return checked.data;
  throw new AgentError(
    'STORAGE_FAILED',
    `A stored conversation record is corrupt: ${describeIssues(checked.issues)}.`,
  );
}

/**
 * A conversation's record and all its messages in order, in one read transaction: one `get` and
 * one `getAll` over the conversation's pages, whatever its length.
 *
 * @throws AgentError `STORAGE_FAILED` when stored data does not validate.
 */
export async function readConversation(
  options: ReadOptions & { conversationId: string },
): Promise<{ record: ConversationRecord; messages: Message[] } | undefined> {
  const { store, KeyRange, conversationId } = options;
  const [recordValue, pageValues] = await transact(store, 'readonly', (objectStore) =>
    Promise.all([
      request(objectStore.get(conversationKey(conversationId))),
      request(objectStore.getAll(pageRange(KeyRange, conversationId))),
    ]),
  );
  const record = readRecord(recordValue);
  if (!record) return undefined;
  const corrupt = (reason: string) =>
    new AgentError('STORAGE_FAILED', `Stored conversation "${conversationId}" is corrupt: ${reason}.`, {
      context: { conversationId },
    });
  if (!Array.isArray(pageValues) || !pageValues.every(Array.isArray)) {
    throw corrupt('a page is not a list of messages');
  }
  const messages = checkMessages(pageValues.flat());
  if (!messages.success) throw corrupt(describeIssues(messages.issues, 'messages'));
  return { record, messages: messages.data };
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
