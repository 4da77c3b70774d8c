import { AgentError } from '../errors/agent-error.js';
import type { AssistantTurn } from '../stream/aggregate-stream.js';
import { executeTool } from '../tools/execute-tool.js';
import type { Tool } from '../tools/tool.js';
import type { InputValidation } from '../tools/validate-input.js';
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
    const call = prepareCall(context, { toolUseId: use.id, name: use.name, input: use.input });
    // Awaited only when a hook or needsApproval function had to run: most calls need no promise.
    calls.push(call instanceof Promise ? await call : call);
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

function prepareCall(context: LoopContext, call: Call): RoundCall | Promise<RoundCall> {
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
  const hooks = context.options.hooks?.PreToolUse;
  if ((hooks === undefined || hooks.length === 0) && typeof tool.needsApproval !== 'function') {
    if (!tool.execute) return { ...valid, status: 'pending', reason: 'external' };
    return tool.needsApproval === true
      ? { ...valid, status: 'pending', reason: 'approval' }
      : { ...valid, status: 'ready' };
  }
  return prepareWithHooks(context, tool, valid, validation);
}

/** {@link prepareCall} once `PreToolUse` hooks or a `needsApproval` function have to run. */
async function prepareWithHooks(
  context: LoopContext,
  tool: Tool,
  valid: Call,
  validation: InputValidation,
): Promise<RoundCall> {
  const decision = await runPreToolHooks(
    context.options.hooks,
    { toolName: valid.name, toolUseId: valid.toolUseId, input: valid.input },
    (error) => context.report(error),
  );
  if (decision.kind === 'deny') {
    return failedCall(
      valid,
      new AgentError('TOOL_DENIED', `Tool "${valid.name}" was denied: ${decision.reason}`),
    );
  }
  const revalidated = decision.input === valid.input ? validation : tool.validate(decision.input);
  if (!revalidated.success)
    return failedCall(valid, new AgentError('INVALID_TOOL_INPUT', revalidated.error));
  const prepared = { ...valid, input: revalidated.value };
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
  // Each call reports when it settles; the loop sleeps only while none is left to announce.
  let running = 0;
  let unannounced = 0;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  round.calls.forEach((call, index) => {
    if (call.status !== 'ready') return;
    running++;
    runCall(context, call).then(
      (settled) => {
        round.calls[index] = settled;
        running--;
        unannounced++;
        wake?.();
      },
      (error: unknown) => {
        failure ??= { error };
        running--;
        wake?.();
      },
    );
  });
  while (running > 0 || unannounced > 0) {
    if (unannounced === 0 && failure === undefined) {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    if (failure !== undefined) throw failure.error;
    unannounced = 0;
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
  let result: unknown = outcome.ok ? outcome.content : outcome.error.message;
  if ((context.options.hooks?.PostToolUse?.length ?? 0) > 0) {
    result = await runPostToolHooks(
      context.options.hooks,
      { toolName: call.name, toolUseId: call.toolUseId, input: call.input, result, isError },
      (error) => context.report(error),
    );
  }
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
