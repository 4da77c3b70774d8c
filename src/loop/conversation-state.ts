import { z } from 'zod';
import { AGENT_ERROR_CODES, type AgentErrorCode } from '../errors/agent-error.js';
import type { Message } from '../types/message.js';
import { messageSchema } from '../types/message-schema.js';
import type { PendingToolCall } from '../types/events.js';
import type { Usage } from '../types/usage.js';

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
}

const usageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  estimated: z.boolean().optional(),
});

const callBase = {
  toolUseId: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
};
const roundCallSchema = z.union([
  z.object({ ...callBase, status: z.literal('ready') }),
  z.object({ ...callBase, status: z.literal('pending'), reason: z.enum(['external', 'approval']) }),
  z.object({
    ...callBase,
    status: z.literal('settled'),
    content: z.unknown(),
    isError: z.boolean(),
    code: z.enum(AGENT_ERROR_CODES).optional(),
    announced: z.boolean(),
  }),
]);

/** Validates a snapshot read back from JSON (storage, another page load). */
export const snapshotSchema = z.object({
  version: z.literal(1),
  messages: z.array(messageSchema),
  round: z.object({ calls: z.array(roundCallSchema) }).nullable(),
  iterationCount: z.number().int().nonnegative(),
  usage: usageSchema,
  finishReason: z.string().nullable(),
  modelCallDue: z.boolean(),
});

/** A paused or idle conversation as plain JSON: `Client.restore()` continues it. */
export type ClientSnapshot = { version: 1 } & ConversationState;

/** The calls still waiting for the caller. */
export function pendingCalls(round: ToolRound | null): PendingToolCall[] {
  return (round?.calls ?? []).flatMap((call) =>
    call.status === 'pending'
      ? [{ toolUseId: call.toolUseId, name: call.name, input: call.input, reason: call.reason }]
      : [],
  );
}

/** Tool results go to the model as text: strings as they are, everything else as JSON. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === undefined) return '';
  try {
    const json = JSON.stringify(content) as string | undefined; // undefined for functions/symbols
    if (json !== undefined) return json;
  } catch {
    // circular or BigInt: fall through
  }
  return `[a ${typeof content} that cannot be sent as JSON]`;
}
