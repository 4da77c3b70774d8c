import type { AgentEvent, DoneStatus, Usage } from '../../src/index.js';

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

/**
 * `detail` of `agent-tool-call`: a call to a tool with no `execute` waits for the page. Answer
 * with `chat.submitToolResult(toolUseId, content, { isError })`, and call
 * `event.preventDefault()` to tell the card the page is on it (otherwise it says that nothing
 * on the page answers). The card's Skip button answers with a denial.
 */
export interface AgentToolCallDetail {
  toolUseId: string;
  name: string;
  input: Record<string, unknown>;
}

/** `detail` of `conversation-change`: the element switched to another conversation. */
export interface ConversationChangeDetail {
  conversationId: string;
}

/** `detail` of `model-change`: the model the chat now uses. */
export interface ModelChangeDetail {
  model: string;
}

/** Every event `<agent-chat>` dispatches on itself. */
export interface AgentChatEventMap {
  /** Each runtime event, as it arrives. */
  'agent-event': CustomEvent<AgentEvent>;
  /** A run (a prompt, a resume after approvals, a retry) ended. */
  'agent-run-end': CustomEvent<AgentRunEndDetail>;
  'agent-error': CustomEvent<AgentErrorDetail>;
  /** A call to an external tool waits for the page's result (cancelable: see the detail). */
  'agent-tool-call': CustomEvent<AgentToolCallDetail>;
  'conversation-change': CustomEvent<ConversationChangeDetail>;
  /** A model picked in `<agent-model-picker>` (open-agent/components/model-picker): the chat's `model` now. */
  'model-change': CustomEvent<ModelChangeDetail>;
}

declare global {
  // Typed `addEventListener('agent-event', …)` on any element (events bubble and compose).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends AgentChatEventMap {}
}
