import type { DoneStatus } from '../types/events.js';
import type { AgentPosition, ExecuteAgentError } from './agent-result.js';
import type { Client } from './client.js';
import type { OutputRecorder } from './output-recorder.js';

/** Where an execution is; updated by the attempt, read by the loop strategy and the callbacks. */
export interface AgentProgress extends AgentPosition {
  /** Model calls completed, over all attempts. */
  iterations: number;
}

/** An attempt's end: a finalised candidate (not yet validated), or why there is none. */
export type AttemptOutcome =
  { ok: true; candidate: Record<string, unknown> } | { ok: false; error: ExecuteAgentError };

/** What {@link runAttempt} needs. */
export interface AttemptOptions {
  client: Client;
  /** The user message that opens the attempt: the task, or the last validation error. */
  prompt: string;
  signal: AbortSignal | undefined;
  recorder: OutputRecorder;
  progress: AgentProgress;
  maxIterations: number;
  /** `Agent "name"`, for messages. */
  label: string;
}

/**
 * Runs one attempt as one `client.run()`: the loop calls the model and the tools until the
 * strategy sees a finalised output (or the iteration limit), a response calls no tool, or
 * the signal aborts. Transport errors propagate (thrown by the loop, history consistent).
 */
export async function runAttempt(options: AttemptOptions): Promise<AttemptOutcome> {
  const { client, recorder, progress, label } = options;
  let status: DoneStatus | undefined;
  for await (const event of client.run(
    options.prompt,
    options.signal ? { signal: options.signal } : {},
  )) {
    if (event.type === 'step_end') progress.iterations += 1;
    else if (event.type === 'done') status = event.status;
  }
  const position = { attempt: progress.attempt, iteration: progress.iteration };
  const where = `iteration ${position.iteration} of attempt ${position.attempt}`;
  if (status === 'cancelled') return { ok: false, error: cancelledError(label, position) };
  if (status === 'awaiting_tool_results') {
    // defineAgent rejects external tools and approvals, and executeAgent sets no hooks that ask.
    throw new Error(`${label}: the run paused for tool results, which executeAgent cannot give`);
  }
  const candidate = recorder.output;
  if (candidate) return { ok: true, candidate };
  if (recorder.submittedEarly) {
    return {
      ok: false,
      error: {
        code: 'SUBMIT_BEFORE_OUTPUT',
        message: `${label}: attempt ${position.attempt} ended in ${where} after "submit" was called with no output to submit`,
        context: position,
      },
    };
  }
  if (status === 'max_iterations') return maxIterationsError(options, position);
  const last = client.history.at(-1);
  const text = last?.role === 'assistant' ? (last.content ?? '') : '';
  return {
    ok: false,
    error: {
      code: 'INVALID_RESPONSE',
      message: `${label}: the response in ${where} called no tool${text ? `: "${preview(text)}"` : ''}`,
      context: { ...position, text },
    },
  };
}

/** The failure of an attempt that used all its iterations. */
export function maxIterationsError(
  options: Pick<AttemptOptions, 'label' | 'maxIterations'>,
  position: AgentPosition,
): AttemptOutcome {
  return {
    ok: false,
    error: {
      code: 'MAX_ITERATIONS',
      message: `${options.label}: attempt ${position.attempt} used all ${options.maxIterations} iterations without producing an output`,
      context: {
        attempt: position.attempt,
        iterationCount: position.iteration,
        maxIterations: options.maxIterations,
      },
    },
  };
}

/** The failure of an aborted execution; `position` is the iteration running or about to start. */
export function cancelledError(label: string, position: AgentPosition): ExecuteAgentError {
  return {
    code: 'EXECUTION_CANCELLED',
    message: `${label} was cancelled in iteration ${position.iteration} of attempt ${position.attempt}`,
    context: { phase: 'iteration', ...position },
  };
}

function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
