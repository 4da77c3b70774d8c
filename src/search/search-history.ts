import type { HistoryStore } from '../history/history-store.js';
import type { Message } from '../types/message.js';

/** Options for {@link searchHistory}. */
export interface HistorySearchOptions {
  /** At most this many results, best first. Default 20. */
  limit?: number;
  signal?: AbortSignal;
}

/** One match of {@link searchHistory}. */
export interface HistorySearchResult {
  conversationId: string;
  /** The conversation's title. */
  title: string;
  /** The index of the matching message in the stored conversation; `-1` when its title matched. */
  messageIndex: number;
  /** The matching message's role (none for a title). */
  role?: Message['role'];
  /** The text around the match (about 160 characters, `…` where cut). */
  snippet: string;
  /** `[start, end)` ranges of `snippet` that matched the query, to highlight. */
  ranges: [number, number][];
}

/**
 * Full-text search over the titles and messages of every conversation of `store`, offline:
 * accent- and case-insensitive, every word must match (the last as a prefix), newest messages
 * first. The index
 * is built on the first call — in slices of a few milliseconds that leave the page responsive —
 * and kept current as messages are appended, renamed, imported or deleted; the search code
 * loads with that first call.
 *
 * @example
 * const history = indexedDBHistory();
 * for (const hit of await searchHistory(history, 'creme brulee', { limit: 10 }))
 *   console.log(hit.title, hit.messageIndex, hit.snippet, hit.ranges);
 */
export async function searchHistory(
  store: HistoryStore,
  query: string,
  options: HistorySearchOptions = {},
): Promise<HistorySearchResult[]> {
  return (await import('./history-index.js')).searchStore(store, query, options);
}
