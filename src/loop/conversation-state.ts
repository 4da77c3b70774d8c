import type { AgentErrorCode } from '../errors/agent-error.js';
import type { Message } from '../types/message.js';
import type { MessageFork } from '../types/message-fork.js';
import type { PendingToolCall } from '../types/events.js';
import type { ContextSummary } from '../types/context-summary.js';
import { emptyUsage, type Usage } from '../types/usage.js';

/** One tool call of the response being handled, from the model's request to its result. */
export type RoundCall = {
  toolUseId: string;
  name: string;
  input: Record<string, unknown>;
} & (
  | { status: 'ready' }
  | { status: 'pending'; reason: PendingToolCall['reason'] }
  | {
      status: 'settled';
      /** The result; for errors, the message. */
      content: unknown;
      isError: boolean;
      /** The error's code, for `tool_use_error` events. */
      code?: AgentErrorCode;
      /** Whether its `tool_result` / `tool_use_error` event was yielded yet. */
      announced: boolean;
      /** The result is content parts with an image: stored as parts, not as JSON text. */
      images?: true;
      /** How long the tool ran, when known: stored with the result for display. */
      durationMs?: number;
    }
);

/**
 * The tool calls of the last assistant message. Results enter `messages` together, in
 * call order, once every call is settled — so history never holds a partial round.
 */
export interface ToolRound {
  calls: RoundCall[];
}

/** Everything a conversation is: what `snapshot()` returns, JSON-safe. */
export interface ConversationState {
  messages: Message[];
  round: ToolRound | null;
  /** Rounds of tools done since the last user prompt (what strategies count). */
  iterationCount: number;
  usage: Usage;
  /** The finish reason of the last model response. */
  finishReason: string | null;
  /** A model call is due on the next `receiveMessages()` (after a prompt or `continue()`). */
  modelCallDue: boolean;
  /** Earlier versions of messages of this branch (regenerated, edited), with their continuations. */
  forks?: MessageFork[];
  /** Summaries written by `contextPolicy: 'summarize'`, of every branch (see `ContextSummary`). */
  summaries?: ContextSummary[];
}

/** A paused or idle conversation as plain JSON: `Client.restore()` continues it. */
export type ClientSnapshot = { version: 1 } & ConversationState;

/** The state of a new conversation: nothing said, nothing due. */
export function emptyConversationState(): ConversationState {
  return {
    messages: [],
    round: null,
    iterationCount: 0,
    usage: emptyUsage(),
    finishReason: null,
    modelCallDue: false,
  };
}

/** The calls still waiting for the caller. */
export function pendingCalls(round: ToolRound | null): PendingToolCall[] {
  return (round?.calls ?? []).flatMap((call) =>
    call.status === 'pending'
      ? [{ toolUseId: call.toolUseId, name: call.name, input: call.input, reason: call.reason }]
      : [],
  );
}
