import { AgentError } from '../errors/agent-error.js';
import type { AssistantTurn } from '../stream/aggregate-stream.js';
import { executeTool } from '../tools/execute-tool.js';
import type { AgentEvent } from '../types/events.js';
import { DEFAULTS } from './agent-options.js';
import { resultText, type RoundCall, type ToolRound } from './conversation-state.js';
import { runPostToolHooks, runPreToolHooks } from './hooks.js';
import type { LoopContext } from './loop-context.js';

type Call = { toolUseId: string; name: string; input: Record<string, unknown> };

/** Settles a call with an error the model will read. */
export function failedCall(call: Call, error: AgentError, announced = false): RoundCall {
  return {
    ...call,
    status: 'settled',
    content: error.message,
    isError: true,
    code: error.code,
    announced,
  };
}

/**
 * Opens the round for a response's tool calls: decides for each whether it runs now,
 * waits for the caller (external tool, approval, manual mode) or fails at once (unknown
 * tool, invalid input, denied by a hook).
 */
export async function* openRound(
  context: LoopContext,
  turn: AssistantTurn,
): AsyncGenerator<AgentEvent> {
  const calls: RoundCall[] = [];
  for (const use of turn.toolCalls) {
    const call = await prepareCall(context, {
      toolUseId: use.id,
      name: use.name,
      input: use.input,
    });
    calls.push(call);
  }
  for (const invalid of turn.invalidToolCalls) {
    // The aggregator already yielded its tool_use_error; only calls echoed in history need a result.
    if (!invalid.toolUseId || !invalid.name) continue;
    const error = new AgentError(invalid.code, invalid.error);
    calls.push(
      failedCall({ toolUseId: invalid.toolUseId, name: invalid.name, input: {} }, error, true),
    );
  }
  context.state.round = { calls };
  yield* announceSettled(context.state.round);
}

async function prepareCall(context: LoopContext, call: Call): Promise<RoundCall> {
  const tool = context.registry.get(call.name);
  if (!tool) {
    const available = [...context.registry.names].join(', ') || 'none';
    return failedCall(
      call,
      new AgentError(
        'TOOL_NOT_FOUND',
        `Tool "${call.name}" not found. Available tools: ${available}`,
      ),
    );
  }
  const validation = tool.validate(call.input);
  if (!validation.success)
    return failedCall(call, new AgentError('INVALID_TOOL_INPUT', validation.error));
  const valid = { ...call, input: validation.value };
  if (!(context.options.autoExecuteTools ?? DEFAULTS.autoExecuteTools)) {
    return { ...valid, status: 'pending', reason: 'external' };
  }
  const decision = await runPreToolHooks(
    context.options.hooks,
    { toolName: call.name, toolUseId: call.toolUseId, input: valid.input },
    (error) => context.report(error),
  );
  if (decision.kind === 'deny') {
    return failedCall(
      valid,
      new AgentError('TOOL_DENIED', `Tool "${call.name}" was denied: ${decision.reason}`),
    );
  }
  const revalidated = decision.input === valid.input ? validation : tool.validate(decision.input);
  if (!revalidated.success)
    return failedCall(valid, new AgentError('INVALID_TOOL_INPUT', revalidated.error));
  const prepared = { ...call, input: revalidated.value };
  if (!tool.execute) return { ...prepared, status: 'pending', reason: 'external' };
  const needsApproval =
    decision.kind === 'ask' ||
    (typeof tool.needsApproval === 'function'
      ? await tool.needsApproval(prepared.input)
      : tool.needsApproval === true);
  return needsApproval
    ? { ...prepared, status: 'pending', reason: 'approval' }
    : { ...prepared, status: 'ready' };
}

/**
 * Runs every `ready` call of the round concurrently; yields each result as it lands.
 * After an abort, every call still unsettled gets an `EXECUTION_CANCELLED` result.
 */
export async function* runReadyCalls(context: LoopContext): AsyncGenerator<AgentEvent> {
  const round = context.state.round;
  if (!round) return;
  yield* announceSettled(round);
  const running = new Map<string, Promise<string>>();
  round.calls.forEach((call, index) => {
    if (call.status !== 'ready') return;
    running.set(
      call.toolUseId,
      runCall(context, call).then((settled) => {
        round.calls[index] = settled;
        return call.toolUseId;
      }),
    );
  });
  while (running.size > 0) {
    const finished = await Promise.race(running.values());
    running.delete(finished);
    yield* announceSettled(round);
  }
  if (context.signal?.aborted === true) {
    cancelUnsettled(round, (call) => `Tool "${call.name}" was cancelled`);
    yield* announceSettled(round);
  }
}

async function runCall(context: LoopContext, call: Call): Promise<RoundCall> {
  const tool = context.registry.get(call.name);
  const outcome = tool
    ? await executeTool(tool, call.input, { signal: context.signal, toolUseId: call.toolUseId })
    : {
        ok: false as const,
        error: new AgentError('TOOL_NOT_FOUND', `Tool "${call.name}" not found`),
      };
  const isError = !outcome.ok;
  const result = await runPostToolHooks(
    context.options.hooks,
    {
      toolName: call.name,
      toolUseId: call.toolUseId,
      input: call.input,
      result: outcome.ok ? outcome.content : outcome.error.message,
      isError,
    },
    (error) => context.report(error),
  );
  return outcome.ok
    ? { ...call, status: 'settled', content: result, isError: false, announced: false }
    : {
        ...call,
        status: 'settled',
        content: result,
        isError: true,
        code: outcome.error.code,
        announced: false,
      };
}

/**
 * Answers every call of the round that has no result yet with `EXECUTION_CANCELLED`, so
 * the round can be committed (an abort, or a new prompt while calls were pending).
 */
export function cancelUnsettled(
  round: ToolRound,
  reason: (call: RoundCall) => string,
  announced = false,
): void {
  round.calls = round.calls.map((call) =>
    call.status === 'settled'
      ? call
      : failedCall(call, new AgentError('EXECUTION_CANCELLED', reason(call)), announced),
  );
}

/** Yields the events of settled calls not yet announced, in call order. */
function* announceSettled(round: ToolRound): Generator<AgentEvent> {
  for (const call of round.calls) {
    if (call.status !== 'settled' || call.announced) continue;
    call.announced = true;
    if (call.isError && call.code) {
      yield {
        type: 'tool_use_error',
        code: call.code,
        error: resultText(call.content),
        toolUseId: call.toolUseId,
        name: call.name,
      };
    } else {
      yield {
        type: 'tool_result',
        toolUseId: call.toolUseId,
        name: call.name,
        content: call.content,
        isError: call.isError,
      };
    }
  }
}

/**
 * Moves a fully settled round into history — one tool message per call, in call order —
 * and counts it as a round of tools done.
 */
export function commitRound(context: Pick<LoopContext, 'state' | 'append'>): void {
  const round = context.state.round;
  if (!round) return;
  context.state.round = null;
  context.state.iterationCount += 1;
  context.append(
    ...round.calls.map((call) => {
      const text = call.status === 'settled' ? resultText(call.content) : 'Error: no result';
      const isError = call.status !== 'settled' || call.isError;
      return {
        role: 'tool' as const,
        tool_call_id: call.toolUseId,
        name: call.name,
        content: isError && !text.startsWith('Error') ? `Error: ${text}` : text,
      };
    }),
  );
}
