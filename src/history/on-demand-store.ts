import { AgentError, errorMessage } from '../errors/agent-error.js';
import type { HistoryStore } from './history-store.js';

type Store = HistoryStore & { close(): void };

/**
 * A {@link HistoryStore} whose code loads by `import()` on its first use: the store's code
 * (with its checks and file format) stays out of a page's first load, and a page that never
 * stores anything never loads it. Calls made while it loads reach it in call order, with what
 * they were given copied at the call (as the store itself copies); once loaded, calls go
 * straight to it. `subscribe` starts the loading too, so that the store listens from then on.
 *
 * @example
 * const history = onDemandStore('memory history', () =>
 *   import('./memory-store.js').then((store) => store.openMemoryHistory()),
 * );
 */
export function onDemandStore(name: string, open: () => Promise<Store>): Store {
  let live: Store | undefined;
  let opening: Promise<Store> | undefined;
  /** Calls queued on the loading: later calls queue behind them, so none overtakes another. */
  let queued = 0;
  const use = <T>(call: (store: Store) => T | Promise<T>): Promise<T> => {
    if (live && queued === 0) return Promise.resolve(call(live));
    opening ??= open().then(
      (store) => (live = store),
      (error: unknown) => {
        opening = undefined; // the next call tries again
        throw new AgentError(
          'STORAGE_FAILED',
          `The ${name}'s code could not be loaded: ${errorMessage(error)}. Check that the library's chunks are served beside it`,
          { cause: error },
        );
      },
    );
    queued++;
    return opening.then(
      (store) => {
        queued--;
        return call(store);
      },
      (error: unknown) => {
        queued--;
        throw error;
      },
    );
  };
  /** What a queued call was given, as it was at the call; what cannot be copied goes as it is (the store refuses it). */
  const kept = <T>(value: T): T => {
    if (live && queued === 0) return value; // the store copies it now
    try {
      return structuredClone(value);
    } catch {
      return value;
    }
  };
  let closed = false;
  return {
    load: (conversationId) => use((store) => store.load(conversationId)),
    append(conversationId, messages) {
      const given = kept(messages);
      return use((store) => store.append(conversationId, given));
    },
    addSummary(conversationId, summary) {
      const given = kept(summary);
      return use((store) => store.addSummary?.(conversationId, given));
    },
    setPending(conversationId, pending) {
      const given = kept(pending);
      return use((store) => store.setPending(conversationId, given));
    },
    list: () => use((store) => store.list()),
    rename: (conversationId, title) => use((store) => store.rename(conversationId, title)),
    delete: (conversationId) => use((store) => store.delete(conversationId)),
    exportConversation: (conversationId) =>
      use((store) => store.exportConversation(conversationId)),
    importConversation: (json, importOptions) =>
      use((store) => store.importConversation(json, importOptions)),
    subscribe(listener) {
      if (live && queued === 0) return live.subscribe(listener);
      let unsubscribe: (() => void) | undefined;
      let dropped = false;
      use((store) => {
        if (!dropped) unsubscribe = store.subscribe(listener);
      }).catch(() => undefined); // the next call reports it
      return () => {
        dropped = true;
        unsubscribe?.();
      };
    },
    close() {
      if (closed) return;
      closed = true;
      // Never loaded: nothing is open. Loading: closed as soon as it is.
      if (live) live.close();
      else
        void opening?.then(
          (store) => store.close(),
          () => undefined,
        );
    },
  };
}
