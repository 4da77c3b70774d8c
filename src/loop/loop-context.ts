import type { AgentError } from '../errors/agent-error.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ChatBackend } from '../types/chat-request.js';
import type { Message } from '../types/message.js';
import type { HistoryStore } from '../history/history-store.js';
import type { AgentOptions } from './agent-options.js';
import type { ConversationState } from './conversation-state.js';

/** What the loop's phases share during one run of `receiveMessages()`. */
export interface LoopContext {
  readonly options: AgentOptions;
  readonly backend: ChatBackend;
  readonly registry: ToolRegistry;
  readonly state: ConversationState;
  readonly signal: AbortSignal | undefined;
  /** Adds messages to the conversation (and to the history store, if any). */
  append(...messages: Message[]): void;
  /**
   * The conversation's messages as a request sends them: the Client takes out what history keeps
   * for display only (reasoning, tool durations). `query()`, one call for a new prompt, has none.
   */
  readonly sent?: (messages: Message[]) => Message[];
  /**
   * Queues a write to the history store, if any, after every earlier one (the Client's; a
   * summary `contextPolicy: 'summarize'` wrote, already in `state.summaries`).
   */
  write?(action: WriteToStore): void;
  /** Reports an error that does not stop the run (a failing hook). */
  report(error: AgentError): void;
  /** Awaited before the run's `done` is yielded (the Client stores a paused round there). */
  beforeDone?(): Promise<void>;
}

/** A write to the conversation's history store (see {@link LoopContext.write}). */
export type WriteToStore = (store: HistoryStore, conversationId: string) => Promise<void>;
