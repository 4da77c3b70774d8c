import type { HistoryChange, HistoryStore } from '../history/history-store.js';
import type { Message } from '../types/message.js';
import { InvertedIndex, termsOf } from './inverted-index.js';
import { snippetOf } from './search-snippet.js';
import type { HistorySearchOptions, HistorySearchResult } from './search-history.js';

/** Characters of one message indexed (a long tool result is found by its start). */
const INDEXED_CHARS = 10_000;
/** Work done between yields to the page: well under the 50 ms of a long task. */
const SLICE_MS = 5;

/** What an indexed document is: a message of a conversation, or (`messageIndex` -1) its title. */
interface Doc {
  conversationId: string;
  /** -1: the conversation's title. */
  messageIndex: number;
  role: Message['role'] | 'title';
  text: string;
}

interface IndexedConversation {
  title: string;
  /** Messages indexed so far: an append indexes the ones after. */
  indexed: number;
  ids: number[];
}

/** How building went: what the bench reports. */
export interface IndexStats {
  conversations: number;
  messages: number;
  buildMs: number;
  /** The longest stretch of indexing between two yields to the page. */
  longestSliceMs: number;
}

/**
 * A full-text index of every conversation of a store (an {@link InvertedIndex}, words folded:
 * no accents, lower case), built in slices of a few milliseconds that yield to the page, then kept current
 * from the store's change events: an append indexes only the new messages.
 */
export class HistoryIndex {
  readonly ready: Promise<void>;
  readonly stats: IndexStats = { conversations: 0, messages: 0, buildMs: 0, longestSliceMs: 0 };
  readonly #store: HistoryStore;
  readonly #search = new InvertedIndex();
  // The documents by id (0, 1, 2…), one array per field: 100,000 messages are a few arrays,
  // not 100,000 objects in a Map that the collector walks and that rehashes as it grows.
  readonly #owners: string[] = [];
  readonly #messageIndexes: number[] = [];
  readonly #roles: Doc['role'][] = [];
  readonly #texts: string[] = [];
  readonly #conversations = new Map<string, IndexedConversation>();
  #work: Promise<void>;
  #sliceStart = 0;

  constructor(store: HistoryStore) {
    this.#store = store;
    const started = performance.now();
    this.#work = this.ready = this.#build().then(() => {
      this.stats.buildMs = performance.now() - started;
    });
    store.subscribe((change) => {
      this.#work = this.#work.then(() => this.#apply(change)).catch(() => undefined);
    });
  }

  /** The best matches of `query`, waiting for pending indexing first. */
  async search(query: string, options: HistorySearchOptions = {}): Promise<HistorySearchResult[]> {
    await this.#work;
    options.signal?.throwIfAborted();
    const terms = [...termsOf(query)];
    if (terms.length === 0) return [];
    const results: HistorySearchResult[] = [];
    for (const id of this.#search.search(terms, options.limit ?? 20)) {
      const text = this.#texts[id];
      if (text === undefined) continue;
      const role = this.#roles[id];
      const conversationId = this.#owners[id] as string;
      const { snippet, ranges } = snippetOf(text, terms);
      results.push({
        conversationId,
        title: this.#conversations.get(conversationId)?.title ?? '',
        messageIndex: this.#messageIndexes[id] as number,
        ...(role === 'title' ? {} : { role }),
        snippet,
        ranges,
      });
    }
    return results;
  }

  async #build(): Promise<void> {
    this.#sliceStart = performance.now();
    // Oldest first: ids grow with recency, and results come newest first.
    for (const { id } of (await this.#store.list()).reverse()) await this.#index(id);
    this.#endSlice();
  }

  async #apply(change: HistoryChange): Promise<void> {
    this.#sliceStart = performance.now();
    switch (change.kind) {
      case 'append':
      case 'import':
      case 'rename':
        await this.#index(change.conversationId, change.kind !== 'append');
        break;
      case 'delete':
        this.#remove(change.conversationId);
        break;
      case 'pending':
      case 'summary':
        break;
      default:
        change.kind satisfies never;
    }
  }

  /** Indexes what is new in a conversation (`whole`: everything again). */
  async #index(conversationId: string, whole = false): Promise<void> {
    const stored = await this.#store.load(conversationId);
    if (!stored) return this.#remove(conversationId);
    let known = this.#conversations.get(conversationId);
    if (
      known &&
      (whole || stored.messages.length < known.indexed || known.title !== stored.title)
    ) {
      this.#remove(conversationId);
      known = undefined;
    }
    if (!known) {
      known = { title: stored.title, indexed: 0, ids: [] };
      this.#conversations.set(conversationId, known);
      this.stats.conversations += 1;
      await this.#add(known, {
        conversationId,
        messageIndex: -1,
        role: 'title',
        text: stored.title,
      });
    }
    for (let index = known.indexed; index < stored.messages.length; index += 1) {
      const message = stored.messages[index] as Message;
      known.indexed = index + 1;
      const text = textOf(message);
      if (text !== '')
        await this.#add(known, { conversationId, messageIndex: index, role: message.role, text });
    }
  }

  async #add(conversation: IndexedConversation, doc: Doc): Promise<void> {
    const id = this.#texts.push(doc.text) - 1;
    this.#owners.push(doc.conversationId);
    this.#messageIndexes.push(doc.messageIndex);
    this.#roles.push(doc.role);
    conversation.ids.push(id);
    this.#search.add(id, doc.text.slice(0, INDEXED_CHARS));
    if (doc.messageIndex >= 0) this.stats.messages += 1;
    if (performance.now() - this.#sliceStart > SLICE_MS) {
      this.#endSlice();
      await yieldToPage();
      this.#sliceStart = performance.now();
    }
  }

  #remove(conversationId: string): void {
    const known = this.#conversations.get(conversationId);
    if (!known) return;
    for (const id of known.ids) {
      this.#search.remove(id);
      this.#texts[id] = '';
    }
    this.#conversations.delete(conversationId);
  }

  #endSlice(): void {
    this.stats.longestSliceMs = Math.max(
      this.stats.longestSliceMs,
      performance.now() - this.#sliceStart,
    );
  }
}

function textOf(message: Message): string {
  switch (message.role) {
    case 'system':
      return message.content;
    case 'user':
      return contentText(message.content);
    case 'assistant':
      return message.content ?? '';
    case 'tool':
      return typeof message.content === 'string' ? message.content : contentText(message.content);
    default:
      return message satisfies never;
  }
}

/** Lets the page run (input, rendering) between slices: `scheduler.yield()` where there is one. */
function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A message's text parts, joined (like `contentText`, which lives in the first load: not imported by lazy code). */
function contentText(content: string | readonly { type: string; text?: string }[]): string {
  return typeof content === 'string'
    ? content
    : content
        .flatMap((part) => (part.type === 'text' && part.text !== undefined ? [part.text] : []))
        .join('\n\n');
}

/** Each store's index: built on its first search, then kept current (see {@link HistoryIndex}). */
const indexes = new WeakMap<HistoryStore, HistoryIndex>();

/**
 * What `searchHistory` does once this module is loaded: searches `store` with its one
 * index. `<agent-conversations>`' search box loads this module itself (see
 * components/conversations/search/conversation-search.ts), and shares the index.
 */
export function searchStore(
  store: HistoryStore,
  query: string,
  options: HistorySearchOptions = {},
): Promise<HistorySearchResult[]> {
  let index = indexes.get(store);
  if (!index) indexes.set(store, (index = new HistoryIndex(store)));
  return index.search(query, options);
}
