import type { AgentEvent, AgentOptions, Client, HistoryStore } from '../../src/index.js';
import type { MarkdownOptions } from '../markdown/render-markdown.js';
import type { AgentRunEndDetail, AgentToolCallDetail } from './chat-events.js';

/** What the session needs from its element. */
export interface SessionHost {
  readonly client: Client | undefined;
  readonly history: HistoryStore | undefined;
  readonly conversationId: string | undefined;
  clientOptions(): AgentOptions;
  markdownOptions(): MarkdownOptions;
  emit(type: 'agent-event', detail: AgentEvent): void;
  emit(type: 'agent-run-end', detail: AgentRunEndDetail): void;
  emit(type: 'agent-error', detail: { error: Error; fatal: boolean }): void;
  /** Returns `false` when a listener called `preventDefault()`. */
  emit(type: 'agent-tool-call', detail: AgentToolCallDetail): boolean;
  /** Something changed that needs a re-render. */
  changed(): void;
  /** A conversation finished loading into the transcript. */
  loaded(): void;
}
