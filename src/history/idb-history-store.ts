import type { Message } from '../types/message.js';
import { checkedTitle, titleFromMessages } from './conversation-title.js';
import { HistoryChannel } from './history-channel.js';
import { rejected, storageFailed, unknownConversation } from './history-errors.js';
import type { HistoryStore, PausedState, StoredConversation } from './history-store.js';
import { readConversation, readSummaries, storedRecord, withSalvage } from './idb-read.js';
import { putImages, storedForm } from './idb-image-records.js';
import {
  conversationKey,
  forksKey,
  imageRange,
  pageRange,
  type ConversationRecord,
} from './idb-records.js';
import { request, transact } from './idb-transaction.js';
import { appendPages, messagesStored, pagesStored, writeAllPages } from './idb-write.js';
import { checkedMessages, checkedPending } from './message-schema.js';
import { openDatabase } from './open-database.js';
import { summariesKey } from './idb-summaries.js';
import type { StoreKit } from './store-kit.js';
import { UnsavedWrites, type UnsavedWrite } from './unsaved-writes.js';
import type { IndexedDBHistoryOptions } from './indexeddb-history.js';

/** The object store's name inside the database. */
const STORE_NAME = 'history';

/**
 * The IndexedDB store's working part, loaded by `import()` on the store's first use (see
 * {@link indexedDBHistory}, which documents its behaviour).
 */
export function openIndexedDBHistory(
  options: IndexedDBHistoryOptions,
  kit: StoreKit,
): HistoryStore & { close(): void } {
  const { UNTITLED, pendingToolCallIds, repairDanglingToolCalls } = kit;
  const dbName = options.dbName ?? 'open-agent-history';
  const now = options.now ?? Date.now;
  const KeyRange = options.IDBKeyRange ?? globalThis.IDBKeyRange;
  // A store the caller gave stays theirs to close.
  const database = options.store
    ? { store: options.store, close: () => undefined }
    : openDatabase({ dbName, storeName: STORE_NAME, indexedDB: options.indexedDB });
  const { store } = database;
  const channel = new HistoryChannel({
    name: `open-agent-history:${dbName}`,
    ...(options.BroadcastChannel ? { BroadcastChannel: options.BroadcastChannel } : {}),
  });
  const unsaved = new UnsavedWrites();

  // One operation at a time, in call order: a write the caller did not await is still stored
  // before a later one (and a failed one's messages go first into the next transaction).
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(operation: () => Promise<T>): Promise<T> => {
    const result = queue.then(operation, operation);
    queue = result.catch(() => undefined);
    return result;
  };

  const newRecord = (id: string): ConversationRecord => {
    const time = now();
    return { id, title: '', createdAt: time, updatedAt: time, messageCount: 0, pageCount: 0 };
  };

  /** Stores the conversation's unsaved messages and pending state plus `write`, atomically. */
  const save = async (conversationId: string, operation: string, write: UnsavedWrite) => {
    const batch = unsaved.merge(conversationId, write);
    try {
      const form = await storedForm(batch.messages);
      await withSalvage(() =>
        transact(store, 'readwrite', async (objectStore) => {
          const record =
            (await storedRecord(objectStore, { conversationId, KeyRange })) ??
            newRecord(conversationId);
          putImages(objectStore, conversationId, form);
          const counts =
            form.messages.length > 0
              ? await appendPages(
                  objectStore,
                  record,
                  form.messages,
                  pageRange(KeyRange, conversationId),
                )
              : {};
          const next: ConversationRecord = {
            ...record,
            ...counts,
            title: record.title || (titleFromMessages(batch.messages, kit) ?? ''),
            updatedAt: now(),
          };
          if (batch.pending) {
            delete next.pending;
            if (batch.pending.value !== undefined) next.pending = batch.pending.value;
          }
          objectStore.put(next, conversationKey(conversationId));
        }),
      );
    } catch (error) {
      unsaved.keep(conversationId, batch);
      throw storageFailed({
        operation,
        conversationId,
        cause: error,
        unsavedMessages: batch.messages.length,
      });
    }
    unsaved.clear(conversationId);
  };

  const loadConversation = async (
    conversationId: string,
  ): Promise<StoredConversation | undefined> => {
    const stored = await readConversation({ store, KeyRange, conversationId }).catch(
      (error: unknown) => {
        throw storageFailed({ operation: 'load', conversationId, cause: error });
      },
    );
    if (stored?.damage?.recordRepaired) await repairCounts(conversationId);
    const kept = unsaved.get(conversationId);
    if (!stored && !kept) return undefined;
    const record = stored?.record ?? newRecord(conversationId);
    const messages = [...(stored?.messages ?? []), ...(kept?.messages ?? [])];
    const pending = kept?.pending ? kept.pending.value : record.pending;
    const { forks, summaries } = stored ?? {};
    return {
      id: conversationId,
      title: record.title || titleFromMessages(messages, kit) || UNTITLED,
      messages: repairDanglingToolCalls(messages, pendingToolCallIds(pending)),
      ...(pending === undefined ? {} : { pending }),
      ...(forks === undefined ? {} : { forks }),
      ...(summaries === undefined ? {} : { summaries }),
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      ...(stored?.damage === undefined ? {} : { damage: stored.damage }),
    };
  };

  /** Writes the counts of the pages that exist into a record that lied about them. */
  const repairCounts = (conversationId: string): Promise<void> =>
    change('repair', conversationId, async (objectStore) => {
      const record = await storedRecord(objectStore, { conversationId, KeyRange });
      if (!record) return;
      const pages = pageRange(KeyRange, conversationId);
      const pageCount = await pagesStored(objectStore, pages);
      const messageCount = await messagesStored(objectStore, pages);
      objectStore.put({ ...record, pageCount, messageCount }, conversationKey(conversationId));
    }).catch(() => undefined); // appends find the last page themselves: a failed repair loses nothing

  /** Runs a transaction that is not an append; maps its failure to STORAGE_FAILED. */
  const change = <T>(
    operation: string,
    conversationId: string | undefined,
    body: (objectStore: IDBObjectStore) => Promise<T> | T,
  ): Promise<T> =>
    withSalvage(() => transact(store, 'readwrite', body)).catch((error: unknown) => {
      throw storageFailed({
        operation,
        cause: error,
        ...(conversationId === undefined ? {} : { conversationId }),
      });
    });

  return {
    load: (conversationId) => serial(() => loadConversation(conversationId)),

    append(conversationId, messages) {
      let checked: Message[];
      try {
        checked = checkedMessages(messages);
      } catch (error) {
        return rejected(error);
      }
      if (checked.length === 0) return Promise.resolve();
      return serial(async () => {
        await save(conversationId, 'append', { messages: checked });
        channel.notify({ conversationId, kind: 'append' });
      });
    },

    setPending(conversationId, pending) {
      let value: PausedState | undefined;
      try {
        value = checkedPending(pending);
      } catch (error) {
        return rejected(error);
      }
      return serial(async () => {
        await save(conversationId, 'setPending', { messages: [], pending: { value } });
        channel.notify({ conversationId, kind: 'pending' });
      });
    },

    addSummary(conversationId, summary) {
      return serial(async () => {
        // Loaded with the first summary: a store never compacted does not ship the checks.
        const check = await import('./summary-check.js');
        const checked = check.checkedSummary(summary);
        await change('addSummary', conversationId, async (objectStore) => {
          if ((await request(objectStore.getKey(conversationKey(conversationId)))) === undefined)
            throw unknownConversation(conversationId);
          const key = summariesKey(conversationId);
          const stored = check.readStoredSummaries(
            await request(objectStore.get(key)),
            conversationId,
          );
          objectStore.put([...(stored ?? []), checked], key);
        });
        channel.notify({ conversationId, kind: 'summary' });
      });
    },

    list: () =>
      serial(() =>
        readSummaries({ store, KeyRange, untitled: UNTITLED }).catch((error: unknown) => {
          throw storageFailed({ operation: 'list', cause: error });
        }),
      ),

    rename(conversationId, title) {
      let checked: string;
      try {
        checked = checkedTitle(title);
      } catch (error) {
        return rejected(error);
      }
      return serial(async () => {
        await change('rename', conversationId, async (objectStore) => {
          const record = await storedRecord(objectStore, { conversationId, KeyRange });
          if (!record) throw unknownConversation(conversationId);
          objectStore.put(
            { ...record, title: checked, updatedAt: now() },
            conversationKey(conversationId),
          );
        });
        channel.notify({ conversationId, kind: 'rename' });
      });
    },

    delete(conversationId) {
      return serial(async () => {
        const existed = await change('delete', conversationId, async (objectStore) => {
          const key = conversationKey(conversationId);
          const found = (await request(objectStore.getKey(key))) !== undefined;
          objectStore.delete(key);
          objectStore.delete(pageRange(KeyRange, conversationId));
          objectStore.delete(imageRange(KeyRange, conversationId));
          objectStore.delete(forksKey(conversationId));
          objectStore.delete(summariesKey(conversationId));
          return found;
        });
        const hadUnsaved = unsaved.clear(conversationId);
        if (existed || hadUnsaved) channel.notify({ conversationId, kind: 'delete' });
      });
    },

    exportConversation(conversationId) {
      return serial(async () => {
        const conversation = await loadConversation(conversationId);
        if (!conversation) throw unknownConversation(conversationId);
        // Loaded on first export or import: a page that does neither does not ship the format.
        const { serializeConversation } = await import('./conversation-file.js');
        return serializeConversation(conversation);
      });
    },

    importConversation(json, importOptions = {}) {
      // Read in turn, like every operation: a call made after this one is not stored first.
      return serial(async () => {
        const [{ readConversationFile }, { copyId }] = await Promise.all([
          import('./conversation-file-forks.js'),
          import('./conversation-file.js'),
        ]);
        const file = await readConversationFile(json);
        // Images of the active branch go to Blobs; a fork's messages are kept as they came.
        const form = await storedForm(file.messages);
        const id = await change('importConversation', importOptions.id, async (objectStore) => {
          const taken = async (candidate: string) =>
            (await request(objectStore.getKey(conversationKey(candidate)))) !== undefined;
          const target = importOptions.id ?? ((await taken(file.id)) ? copyId(file.id) : file.id);
          objectStore.delete(pageRange(KeyRange, target));
          objectStore.delete(imageRange(KeyRange, target));
          putImages(objectStore, target, form);
          const pageCount = writeAllPages(objectStore, target, form.messages);
          if (file.forks) objectStore.put(file.forks, forksKey(target));
          else objectStore.delete(forksKey(target));
          if (file.summaries) objectStore.put(file.summaries, summariesKey(target));
          else objectStore.delete(summariesKey(target));
          const record: ConversationRecord = {
            id: target,
            title: file.title === UNTITLED ? '' : file.title,
            createdAt: file.createdAt,
            updatedAt: file.updatedAt,
            messageCount: file.messages.length,
            pageCount,
            ...(file.pending === undefined ? {} : { pending: file.pending }),
          };
          objectStore.put(record, conversationKey(target));
          return target;
        });
        unsaved.clear(id);
        channel.notify({ conversationId: id, kind: 'import' });
        return id;
      });
    },

    subscribe: (listener) => channel.subscribe(listener),

    close() {
      channel.close();
      database.close();
    },
  };
}
