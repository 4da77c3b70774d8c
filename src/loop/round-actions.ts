import { AgentError } from '../errors/agent-error.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { AgentEvent } from '../types/events.js';
import type { ConversationState, RoundCall, ToolRound } from './conversation-state.js';
import { failedCall, resultText } from './round-calls.js';

type PendingCall = Extract<RoundCall, { status: 'pending' }>;

/**
 * Replaces the pending call `toolUseId` of the open round with what `settle` makes of it.
 * @throws TypeError when no such call is pending.
 */
export function updatePendingCall(
  state: ConversationState,
  toolUseId: string,
  method: string,
  settle: (call: PendingCall) => RoundCall,
): void {
  const calls = state.round?.calls ?? [];
  const index = calls.findIndex(
    (call) => call.toolUseId === toolUseId && call.status === 'pending',
  );
  const call = calls[index];
  if (call?.status !== 'pending') {
    throw new TypeError(`${method}: no pending tool call with id "${toolUseId}"`);
  }
  calls[index] = settle(call);
}

/** A caller-supplied result (already known to the caller, so not announced again). */
export function resultCall(call: PendingCall, content: unknown, isError: boolean): RoundCall {
  const { toolUseId, name, input } = call;
  return { toolUseId, name, input, status: 'settled', content, isError, announced: true };
}

/**
 * An approved call, ready to run with the (possibly edited, validated again) input.
 * @throws TypeError for a call that waits for a result rather than an approval.
 */
export function approvedCall(
  registry: ToolRegistry,
  call: PendingCall,
  input: Record<string, unknown> = call.input,
): RoundCall {
  const { toolUseId, name } = call;
  if (call.reason !== 'approval') {
    // An external tool has nothing to run: it waits for the caller's result.
    throw new TypeError(
      `approve: tool call "${toolUseId}" (${name}) waits for a result (addToolResult), not an approval`,
    );
  }
  const validation = registry.get(name)?.validate(input) ?? {
    success: true as const,
    value: input,
  };
  return validation.success
    ? { toolUseId, name, input: validation.value, status: 'ready' }
    : failedCall(call, new AgentError('INVALID_TOOL_INPUT', validation.error));
}

/** A denied call: the model is told it was denied, and why. */
export function deniedCall(call: PendingCall, reason: string): RoundCall {
  return failedCall(
    call,
    new AgentError('TOOL_DENIED', `Tool "${call.name}" was denied: ${reason}`),
  );
}

/**
 * The `tool_use_error` events of settled calls no event told of yet (a `deny()` that settled
 * the round), marking them told: the round is committed before the next run could.
 */
export function untoldErrors(round: ToolRound): AgentEvent[] {
  return round.calls.flatMap((call) => {
    if (call.status !== 'settled' || call.announced || !call.isError || !call.code) return [];
    call.announced = true;
    return [
      {
        type: 'tool_use_error' as const,
        code: call.code,
        error: resultText(call.content),
        toolUseId: call.toolUseId,
        name: call.name,
      },
    ];
  });
}
