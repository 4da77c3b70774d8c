import { contentText } from '../types/message.js';
import { UNTITLED } from './history-store.js';
import { pendingToolCallIds, repairDanglingToolCalls } from './repair-dangling-tool-calls.js';

/**
 * What the history stores' lazily loaded code uses of the modules a first load has (public
 * exports): handed to it when a store opens, so that it imports none of them. An esbuild app
 * would otherwise get those modules as a chunk of their own in every first load, store or not
 * (test/size/first-load-files.test.ts).
 *
 * @example
 * const store = (await import('./memory-store.js')).openMemoryHistory({}, storeKit);
 */
export const storeKit = { UNTITLED, contentText, pendingToolCallIds, repairDanglingToolCalls };

/** See {@link storeKit}. */
export type StoreKit = typeof storeKit;
