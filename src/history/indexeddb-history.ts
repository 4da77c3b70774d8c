import type { UseStore } from 'idb-keyval';
import type { HistoryStore } from './history-store.js';
import { onDemandStore } from './on-demand-store.js';
import { storeKit } from './store-kit.js';

/** Options for {@link indexedDBHistory}. */
export interface IndexedDBHistoryOptions {
  /** The database name, also the cross-tab channel's (default `'open-agent-history'`). */
  dbName?: string;
  /** The IndexedDB factory (default: the global `indexedDB`), e.g. fake-indexeddb's in Node. */
  indexedDB?: IDBFactory;
  /** `IDBKeyRange` of the same implementation as `indexedDB` (default: the global one). */
  IDBKeyRange?: typeof IDBKeyRange;
  /**
   * An idb-keyval custom store to use instead of opening `dbName` (an object store of your own
   * database; a wrapper that injects failures in tests). It must not be shared with other keys.
   */
  store?: UseStore;
  /** The cross-tab channel class (default: the global `BroadcastChannel`). */
  BroadcastChannel?: typeof BroadcastChannel;
  /** The clock for `createdAt`/`updatedAt` (default `Date.now`). */
  now?: () => number;
}

/**
 * A {@link HistoryStore} in IndexedDB (through idb-keyval): one record per message, so an
 * append costs the same at message 10 and 10,000, and a load is one `getAll` over a key range.
 * Every write is one transaction that allocates message numbers itself, so two tabs appending
 * to one conversation never lose or overwrite each other's messages; each tab hears about the
 * other's writes through a `BroadcastChannel`.
 *
 * When storage fails (quota exceeded, storage blocked or unavailable) the write rejects with
 * `AgentError('STORAGE_FAILED')`, nothing already stored changes, and the messages are kept in
 * memory: `load` still returns them and the next successful write of that conversation stores
 * them first, in order.
 *
 * @example
 * const history = indexedDBHistory({ dbName: 'my-app-chats' });
 * const client = new Client({ model: 'qwen3', baseURL, history, conversationId: 'c1' });
 * for (const conversation of await history.list()) console.log(conversation.title);
 */
export function indexedDBHistory(
  options: IndexedDBHistoryOptions = {},
): HistoryStore & { close(): void } {
  return onDemandStore('IndexedDB history', () =>
    import('./idb-history-store.js').then(({ openIndexedDBHistory }) =>
      openIndexedDBHistory(options, storeKit),
    ),
  );
}
