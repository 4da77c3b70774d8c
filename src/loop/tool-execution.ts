import { AgentError } from '../errors/agent-error.js';
import { executeTool, type ToolOutcome } from '../tools/execute-tool.js';
import type { ContentPart } from '../types/message.js';
import type { Tool } from '../tools/tool.js';
import type { InputValidation } from '../tools/validate-input.js';
import type { RoundCall } from './conversation-state.js';
import { runPostToolHooks, runPreToolHooks } from './tool-hooks.js';
import type { LoopContext } from './loop-context.js';
import type { PhaseStep } from './agent-loop.js';
import { announceSettled, cancelUnsettled, failedCall, type Call } from './round-calls.js';

// The half of a tool round that runs tools: PreToolUse hooks and approval predicates, execute,
// PostToolUse hooks. tool-round.ts loads it with the first round that needs it.

/** How long ready calls may run back to back before the main thread is handed back. */
const TOOL_SLICE_MS = 25;

/** {@link prepareCall} once `PreToolUse` hooks or a `needsApproval` function have to run. */
export async function prepareWithHooks(
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
 * Runs every `ready` call of the round concurrently; yields each result as it lands (the
 * results settled together as one phase: the pump passes them on without resuming this).
 * After an abort, every call still unsettled gets an `EXECUTION_CANCELLED` result.
 */
export async function* runReadyCalls(context: LoopContext): AsyncGenerator<PhaseStep> {
  const round = context.state.round;
  if (!round) return;
  yield announceSettled(round);
  // Each call reports when it settles; the loop sleeps only while none is left to announce.
  let running = 0;
  let unannounced = 0;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  // Hot path: per call. One clock reading per call ends its time and starts the next one's
  // (`performance`, a getter in Node, read once per round).
  const clock = performance;
  let sliceStart = clock.now();
  let now = sliceStart;
  for (const [index, call] of round.calls.entries()) {
    if (call.status !== 'ready') continue;
    // Tools that answer at once, back to back (200 in one answer), hand the main thread back
    // (input, paint) after each slice of synchronous work; the results keep the calls' order.
    if (now - sliceStart >= TOOL_SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = now = clock.now();
      if (context.signal?.aborted === true) break;
    }
    const started = now;
    const tool = context.registry.get(call.name);
    const outcome = tool
      ? executeTool(tool, call.input, { signal: context.signal, toolUseId: call.toolUseId })
      : {
          ok: false as const,
          error: new AgentError('TOOL_NOT_FOUND', `Tool "${call.name}" not found`),
        };
    now = clock.now();
    const hooked = (context.options.hooks?.PostToolUse?.length ?? 0) > 0;
    // A tool that answered at once (a sync execute, no PostToolUse hook) settles without a promise.
    if (!hooked && !(outcome instanceof Promise)) {
      round.calls[index] = settledCall(call, outcome, Math.round(now - started));
      unannounced++;
      continue;
    }
    running++;
    settleLater(context, call, outcome, hooked, started).then(
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
  }
  while (running > 0 || unannounced > 0) {
    if (unannounced === 0 && failure === undefined) {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    if (failure !== undefined) throw failure.error;
    unannounced = 0;
    yield announceSettled(round);
  }
  if (context.signal?.aborted === true) {
    cancelUnsettled(round, (call) => `Tool "${call.name}" was cancelled`);
    yield announceSettled(round);
  }
}

/** Settles a call whose tool answered with a promise, or whose `PostToolUse` hooks wait. */
async function settleLater(
  context: LoopContext,
  call: Call,
  outcome: ToolOutcome | Promise<ToolOutcome>,
  hooked: boolean,
  started: number,
): Promise<RoundCall> {
  const done = await outcome;
  const durationMs = Math.round(performance.now() - started);
  if (!hooked) return settledCall(call, done, durationMs);
  const isError = !done.ok;
  const result = await runPostToolHooks(
    context.options.hooks,
    {
      toolName: call.name,
      toolUseId: call.toolUseId,
      input: call.input,
      result: done.ok ? done.content : done.error.message,
      isError,
    },
    (error) => context.report(error),
  );
  return settledCall(call, done, durationMs, { result });
}

/**
 * The settled call for `outcome`, which took `durationMs` (without the hooks); `hooked.result`
 * is what a `PostToolUse` hook made of it.
 */
function settledCall(
  call: Call,
  outcome: ToolOutcome,
  durationMs: number,
  hooked?: { result: unknown },
): RoundCall {
  if (outcome.ok) {
    const content = hooked ? hooked.result : outcome.content;
    return {
      ...call,
      status: 'settled',
      content,
      isError: false,
      announced: false,
      durationMs,
      // Most results are no list: told apart without a call.
      ...(Array.isArray(content) && hasImageParts(content) ? { images: true as const } : {}),
    };
  }
  return {
    ...call,
    status: 'settled',
    content: hooked ? hooked.result : outcome.error.message,
    isError: true,
    code: outcome.error.code,
    announced: false,
    durationMs,
  };
}

// Lives here, in the chunk that runs tools: in types/message.ts (which the first load needs
// for contentText) esbuild would give it a chunk of its own beside the entry.
/** Whether the list `value` holds {@link ContentPart}s only, one an image at least. */
const hasImageParts = (value: readonly (Partial<ContentPart> | null)[]): value is ContentPart[] =>
  value.some((part) => part?.type === 'image_url') &&
  value.every(
    (part: Partial<ContentPart> | null) =>
      typeof (part?.type === 'text'
        ? part.text
        : part?.type === 'image_url' && part.image_url?.url) === 'string',
  );
