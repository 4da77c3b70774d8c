import type { AgentEvent, DoneStatus, Usage } from '../src/index.js';

/** `detail` of `agent-run-end`: how a run of the element ended. */
export interface AgentRunEndDetail {
  /** The runtime's `done` status, or `error` when the run threw. */
  status: DoneStatus | 'error';
  /** This run's usage (absent after an error). */
  usage?: Usage;
  error?: Error;
}

/**
 * `detail` of `agent-error`. `fatal` errors ended the run; others (storage) did not.
 * The error is an `AgentError` for everything the runtime reports (check with `isAgentError`).
 */
export interface AgentErrorDetail {
  error: Error;
  fatal: boolean;
}

/** `detail` of `conversation-change`: the element switched to another conversation. */
export interface ConversationChangeDetail {
  conversationId: string;
}

/** Every event `<agent-chat>` dispatches on itself. */
export interface AgentChatEventMap {
  /** Each runtime event, as it arrives. */
  'agent-event': CustomEvent<AgentEvent>;
  /** A run (a prompt, a resume after approvals, a retry) ended. */
  'agent-run-end': CustomEvent<AgentRunEndDetail>;
  'agent-error': CustomEvent<AgentErrorDetail>;
  'conversation-change': CustomEvent<ConversationChangeDetail>;
}

declare global {
  // Typed `addEventListener('agent-event', …)` on any element (events bubble and compose).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends AgentChatEventMap {}
}
