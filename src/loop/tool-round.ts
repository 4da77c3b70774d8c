import { AgentError } from '../errors/agent-error.js';
import type { AssistantTurn } from '../stream/aggregate-stream.js';
import type { AgentEvent } from '../types/events.js';
import type { InputValidation } from '../tools/validate-input.js';
import { DEFAULTS } from './agent-defaults.js';
import type { RoundCall } from './conversation-state.js';
import type { LoopContext } from './loop-context.js';
import type { Phase, PhaseStep } from './agent-loop.js';
import type * as ToolExecution from './tool-execution.js';
import {
  announceSettled,
  DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE,
  failedCall,
  type Call,
} from './round-calls.js';

/**
 * Opens the round for a response's tool calls: decides for each whether it runs now,
 * waits for the caller (external tool, approval, manual mode) or fails at once (unknown
 * tool, invalid input, denied by a hook); then yields the events of what already settled.
 * A phase for the pump, which resumes it once per round: one generator serves rounds with
 * and without hooks to wait for (it no longer costs a hop per event).
 */
export async function* openRound(
  context: LoopContext,
  turn: AssistantTurn,
): AsyncGenerator<AgentEvent> {
  const calls: RoundCall[] = [];
  const limit = context.options.maxToolCallsPerResponse ?? DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE;
  for (const [index, use] of turn.toolCalls.entries()) {
    const asked = { toolUseId: use.id, name: use.name, input: use.input };
    if (index >= limit) {
      const error = new AgentError(
        'TOOL_DENIED',
        `Tool "${use.name}" was not run: the response asked for ${turn.toolCalls.length} tool calls, and at most ${limit} run per response (maxToolCallsPerResponse). Ask for fewer at a time.`,
      );
      calls.push(failedCall(asked, error));
      continue;
    }
    const prepared = prepareCall(context, asked, context.registry.accepted.get(use));
    // Awaited only when a hook or needsApproval function had to run: most calls need no promise.
    const call = prepared instanceof Promise ? await prepared : prepared;
    // A call found in the text (it may be quoted) asks first when the app said so.
    calls.push(
      use.recoveredFromText &&
        call.status == 'ready' &&
        context.options.textMarkup?.toolCalls == 'ask'
        ? { ...call, status: 'pending', reason: 'approval' }
        : call,
    );
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

function prepareCall(
  context: LoopContext,
  call: Call,
  accepted: InputValidation | undefined,
): RoundCall | Promise<RoundCall> {
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
  // Checked once: as the call streamed in (`accepted`, see tool-input-repair.ts), or here.
  const validation = accepted ?? tool.validate(call.input);
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
  return (execution ? Promise.resolve(execution) : loadToolExecution()).then((loaded) =>
    loaded.prepareWithHooks(context, tool, valid, validation),
  );
}

/**
 * Settles what the round can settle now: runs its `ready` calls (see `runReadyCalls`, loaded on
 * the first round that runs a tool: a page that only streams answers never ships it), and
 * yields the events of calls settled since the last time. Returns the iterator that does it
 * (a phase for the pump) rather than wrapping it: a generator here would add a hop to every event.
 */
export function settleRound(context: LoopContext): Phase {
  const round = context.state.round;
  if (!round) return announceSettled({ calls: [] });
  if (round.calls.some((call) => call.status === 'ready')) {
    return execution ? execution.runReadyCalls(context) : loadAndRunReadyCalls(context);
  }
  return announceSettled(round);
}

async function* loadAndRunReadyCalls(context: LoopContext): AsyncGenerator<PhaseStep> {
  const { runReadyCalls } = await loadToolExecution();
  yield* runReadyCalls(context);
}

let execution: typeof ToolExecution | undefined;

/** The tool-running half of the loop, loaded once (and kept, so later rounds await nothing). */
async function loadToolExecution(): Promise<typeof ToolExecution> {
  execution = await import('./tool-execution.js');
  return execution;
}
