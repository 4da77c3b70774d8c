import type { HistoryStore } from './history-store.js';
import { onDemandStore } from './on-demand-store.js';
import { storeKit } from './store-kit.js';

/** Options for {@link memoryHistory}. */
export interface MemoryHistoryOptions {
  /** The clock for `createdAt`/`updatedAt` (default `Date.now`). */
  now?: () => number;
}

/**
 * A {@link HistoryStore} in memory: gone on reload. For tests, Node, and apps that keep no
 * history. Validates and stores copies, so later changes to the caller's objects do not leak
 * in; `subscribe` sees this instance's changes only.
 *
 * @example
 * const client = new Client({ model, baseURL, history: memoryHistory(), conversationId: 'c1' });
 */
export function memoryHistory(
  options: MemoryHistoryOptions = {},
): HistoryStore & { close(): void } {
  return onDemandStore('memory history', () =>
    import('./memory-store.js').then(({ openMemoryHistory }) =>
      openMemoryHistory(options, storeKit),
    ),
  );
}
