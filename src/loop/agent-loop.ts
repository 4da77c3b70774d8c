import { isAgentError } from '../errors/agent-error.js';
import type { AgentEvent, DoneStatus } from '../types/events.js';
import { addUsage, emptyUsage, type Usage } from '../types/usage.js';
import { DEFAULTS } from './agent-defaults.js';
import { pendingCalls } from './conversation-state.js';
import type { LoopContext } from './loop-context.js';
import { maxIterations } from './loop-strategies.js';
import { modelStep, type ModelStepResult } from './model-step.js';
import { announceWaiting, WaitStatus } from './announce-waiting.js';
import { cancelUnsettled, commitRound } from './round-calls.js';
import { openRound, settleRound } from './tool-round.js';

/** The `done` of a run whose prompt a `UserPromptSubmit` hook blocked: nothing was sent. */
export function promptBlocked(): AgentEvent {
  return {
    type: 'done',
    status: 'completed',
    finishReason: null,
    usage: emptyUsage(),
    iterations: 0,
  };
}

/**
 * The agent loop: settle the open round of tools (run, pause or cancel), then call the
 * model, until a response has no tool calls, the strategy says stop, the run pauses for
 * the caller, or it is aborted. Transport errors throw with history left consistent.
 *
 * Its events come through {@link pumpPhases} (`pumpPhases(agentLoop(context))`): each phase
 * (a model call, a round of tools) is handed to the pump with `yield`, which passes its events
 * straight on and resumes the loop with the phase's return value — once per phase, not once
 * per event.
 */
export async function* agentLoop(context: LoopContext): AsyncGenerator<PhaseStep, void> {
  const { state, options } = context;
  const strategy =
    options.loopStrategy ?? maxIterations(options.maxToolIterations ?? DEFAULTS.maxToolIterations);
  let usage = emptyUsage();
  let iterations = 0;
  let output: unknown;
  const done = async (status: DoneStatus): Promise<AgentEvent> => {
    await context.beforeDone?.();
    return {
      type: 'done',
      status,
      finishReason: iterations > 0 ? state.finishReason : null,
      usage,
      iterations,
      ...(output === undefined ? {} : { output }),
    };
  };
  try {
    do {
      if (state.round) {
        yield settleRound(context);
        context.signal?.throwIfAborted();
        const pending = pendingCalls(state.round);
        if (pending.length > 0) {
          yield { type: 'awaiting_tool_results', pending };
          yield await done('awaiting_tool_results');
          return;
        }
        commitRound(context);
        // Without auto-execution every valid call waits for the caller, so a round settled
        // here held only invalid calls: their error results wait for the caller's continue().
        state.modelCallDue = options.autoExecuteTools ?? DEFAULTS.autoExecuteTools;
      }
      if (!state.modelCallDue) break;
      state.modelCallDue = false;
      const continuation = state.messages.at(-1)?.role === 'tool';
      if (
        continuation &&
        !strategy({
          iterationCount: state.iterationCount,
          // Copied only for a strategy that reads it: a copy per round is O(n²) over a long run.
          get messages() {
            return [...state.messages];
          },
          finishReason: state.finishReason,
        })
      ) {
        // A custom strategy stopping is deliberate; hitting the default safety limit is worth a warning.
        if (!options.loopStrategy) {
          console.warn(
            `open-agent: stopped after ${state.iterationCount} rounds of tool calls (maxToolIterations)`,
          );
        }
        yield await done('max_iterations');
        return;
      }
      context.signal?.throwIfAborted();
      iterations += 1;
      // The pump resumes us with modelStep's return value.
      const wait = new WaitStatus();
      const count = (spent: Usage): void => {
        usage = addUsage(usage, spent);
        state.usage = addUsage(state.usage, spent);
      };
      const step = (yield announceWaiting(
        modelStep(context, iterations, wait.report, count),
        wait,
      )) as ModelStepResult;
      count(step.usage);
      state.finishReason = step.turn.finishReason;
      // After the usage is counted: a failed answer throws `VALIDATION_FAILED`, its text in history.
      const { answer } = step;
      if (answer?.success === false) throw answer.error;
      output = answer?.value;
      yield openRound(context, step.turn);
    } while (state.round && state.round.calls.length > 0);
    state.round = null;
    yield await done('completed');
  } catch (error) {
    if (!(context.signal?.aborted === true || isAgentError(error, 'EXECUTION_CANCELLED')))
      throw error;
    if (state.round) {
      cancelUnsettled(state.round, (call) => `Tool "${call.name}" was cancelled`, true);
      commitRound(context);
    }
    yield await done('cancelled');
  }
}

/**
 * A phase of the loop (a model call, a round of tools) as {@link pumpPhases} runs it: an
 * iterator of its events, and of the phases it hands on in turn.
 */
export type Phase = AsyncGenerator<PhaseStep, unknown> | Generator<PhaseStep, unknown>;

/** What a phase yields: an event for the consumer, or a phase to run. */
export type PhaseStep = AgentEvent | Phase;

/**
 * Runs nested phase generators as one stream of events, the way nested `yield*` would —
 * a phase's error thrown into the phase that started it, `return()` closing them innermost
 * first — but each event goes from the phase that yields it to the consumer in one step.
 * Through `yield*`, every event resumed every generator on the way up, and the engine then
 * optimized all of them: in a short-lived process (a page, a CLI run) compiling the loop's
 * big generators cost more CPU than the run itself. Here only this small one runs per event.
 */
export async function* pumpPhases(root: Phase): AsyncGenerator<AgentEvent, void> {
  const stack = [root];
  // An error on its way out: thrown into each phase that started the one that failed.
  let failure: { error: unknown } | undefined;
  let value: unknown;
  try {
    for (let frame = stack.at(-1); frame; frame = stack.at(-1)) {
      let step: IteratorResult<PhaseStep, unknown>;
      try {
        step = await (failure ? frame.throw(failure.error) : frame.next(value));
        failure = undefined;
      } catch (error) {
        stack.pop();
        failure = { error };
        continue;
      }
      value = undefined;
      if (step.done === true) {
        stack.pop();
        value = step.value;
      } else if ('next' in step.value) stack.push(step.value);
      else {
        try {
          yield step.value;
        } catch (error) {
          failure = { error };
        }
      }
    }
    if (failure) throw failure.error;
  } finally {
    // Stopped early (the consumer's return()): the phases still open close, innermost first.
    for (let frame = stack.pop(); frame; frame = stack.pop()) await frame.return(undefined);
  }
}
