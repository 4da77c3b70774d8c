import type { Message } from '../types/message.js';
import type { MessageFork } from '../types/message-fork.js';
import type { ContextSummary } from '../types/context-summary.js';

/** One row of {@link HistoryStore.list}. */
export interface ConversationSummary {
  id: string;
  /** The user's title, or one taken from the first user message (about 60 characters). */
  title: string;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
}

/** A conversation as {@link HistoryStore.load} returns it. */
export interface StoredConversation {
  id: string;
  title: string;
  /** In order, with dangling tool calls repaired (see {@link repairDanglingToolCalls}). */
  messages: Message[];
  /** The paused run (pending external tools or approvals), if one is waiting. */
  pending?: PausedState;
  /** Earlier versions of its messages (regenerated answers, edited prompts), if any. */
  forks?: MessageFork[];
  /** Summaries of its oldest messages (`contextPolicy: 'summarize'`), of every branch, if any. */
  summaries?: ContextSummary[];
  createdAt: number;
  updatedAt: number;
  /** What the load found damaged in storage, left out or repaired; absent when nothing was. */
  damage?: StorageDamage;
}

/**
 * Damage a load found: the readable rest is loaded (and exported), and the Client reports this
 * through `onError` (`STORAGE_FAILED`, with these fields as `context`).
 */
export interface StorageDamage {
  /** Stored messages that could not be read, left out (an unreadable page counts as one). */
  unreadableMessages: number;
  /** The conversation's record was unreadable or its counts did not match its pages: repaired. */
  recordRepaired: boolean;
  /** Its earlier versions (branches) did not fit its messages: left out. */
  branchesLost: boolean;
}

/**
 * JSON-safe paused-run state the Client stores while waiting for tool results or approvals
 * (its `snapshot()`). Opaque to the store, which only checks it is a plain object and reads
 * `pending[].toolUseId` to know which tool calls are still awaited, not interrupted.
 */
export type PausedState = Record<string, unknown>;

/** What changed, as told to {@link HistoryStore.subscribe} listeners. */
export interface HistoryChange {
  conversationId: string;
  kind: 'append' | 'pending' | 'rename' | 'delete' | 'import' | 'summary';
  /** `true` when another store instance (another tab) made the change. */
  remote: boolean;
}

/**
 * Where a `Client` keeps conversations. Writes that fail in storage reject with
 * `AgentError('STORAGE_FAILED')`; a failed `append` keeps its messages in memory and writes them
 * first, in order, with the next successful write of that conversation, so what is stored is
 * always an in-order prefix and never has a gap.
 *
 * @example
 * const history = indexedDBHistory();
 * await history.append('c1', [{ role: 'user', content: 'Hello' }]);
 * const conversation = await history.load('c1'); // survives a reload
 */
export interface HistoryStore {
  /** The conversation's messages in order, dangling tool calls repaired; `undefined` if unknown. */
  load(conversationId: string): Promise<StoredConversation | undefined>;
  /**
   * Adds messages at the end, creating the conversation if needed (titled from its first user
   * message). Cost does not depend on the conversation's length.
   */
  append(conversationId: string, messages: Message[]): Promise<void>;
  /**
   * Stores a summary beside the conversation's messages (they stay as they are), exported and
   * imported with them. Optional: a store without it keeps no summaries (they are written again).
   */
  addSummary?(conversationId: string, summary: ContextSummary): Promise<void>;
  /** Stores (or with `undefined`, clears) the paused run of a conversation. */
  setPending(conversationId: string, pending: PausedState | undefined): Promise<void>;
  /** Every conversation, newest (`updatedAt`) first. */
  list(): Promise<ConversationSummary[]>;
  /** Renames a conversation; throws `VALIDATION_FAILED` for an unknown id or an empty title. */
  rename(conversationId: string, title: string): Promise<void>;
  /** Deletes a conversation and its messages; unknown ids are ignored. */
  delete(conversationId: string): Promise<void>;
  /** JSON text with `format` and `version` fields; throws `VALIDATION_FAILED` for an unknown id. */
  exportConversation(conversationId: string): Promise<string>;
  /**
   * Validates a file from {@link HistoryStore.exportConversation} and stores it; returns its id.
   * Uses `options.id` (replacing a conversation of that id) or the file's id (a fresh id when that
   * one is taken). A bad file throws `VALIDATION_FAILED` saying what is wrong and changes nothing.
   */
  importConversation(json: string, options?: { id?: string }): Promise<string>;
  /** Calls `listener` after each change, by this instance or (`remote: true`) another tab. */
  subscribe(listener: (change: HistoryChange) => void): () => void;
  /** Releases the database connection and the cross-tab channel. */
  close?(): void;
}

/** The title of a conversation that has no user message yet and was never renamed. */
export const UNTITLED = 'New conversation';
