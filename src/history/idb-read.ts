import type { UseStore } from 'idb-keyval';
import * as z from 'zod/mini';
import { AgentError } from '../errors/agent-error.js';
import type { Message } from '../types/message.js';
import { safeParse } from '../types/safe-parse.js';
import type { ConversationSummary } from './history-store.js';
import { UNTITLED } from './history-store.js';
import {
  conversationKey,
  conversationRange,
  conversationRecordSchema,
  pageRange,
  type ConversationRecord,
} from './idb-records.js';
import { request, transact } from './idb-transaction.js';
import { describeIssues, messageSchema } from './message-schema.js';
import { newestFirst } from './newest-first.js';

const storedPagesSchema = z.array(z.array(messageSchema));

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
  const parsed = safeParse(conversationRecordSchema, value);
  if (parsed.success) return parsed.data;
  throw new AgentError(
    'STORAGE_FAILED',
    `A stored conversation record is corrupt: ${describeIssues(parsed.error)}.`,
    { cause: parsed.error },
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
  const pages = safeParse(storedPagesSchema, pageValues);
  if (!pages.success) {
    throw new AgentError(
      'STORAGE_FAILED',
      `Stored conversation "${conversationId}" is corrupt: ${describeIssues(pages.error, 'pages')}.`,
      { cause: pages.error, context: { conversationId } },
    );
  }
  return { record, messages: pages.data.flat() };
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
    const parsed = safeParse(conversationRecordSchema, value);
    if (!parsed.success) continue;
    const { id, title, createdAt, updatedAt, messageCount } = parsed.data;
    summaries.push({ id, title: title || UNTITLED, createdAt, updatedAt, messageCount });
  }
  return summaries.sort(newestFirst);
}
