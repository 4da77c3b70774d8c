import { isAgentError } from '../errors/agent-error.js';
import type { Done } from '../types/events.js';
import { isRecord } from '../types/is-record.js';
import {
  cancelledError,
  maxIterationsError,
  type AttemptOptions,
  type AttemptOutcome,
} from './agent-attempt.js';

/** An attempt in json mode: its outcome, or the reason its answer was rejected (for the model). */
export type JsonAttemptOutcome = AttemptOutcome | { ok: true; rejected: string };

/**
 * Runs one attempt of a json-mode agent as one `client.run()` (the Client has the output
 * schema as its `responseFormat`): helpers may run, then the answer arrives as the `done`
 * event's `output`. An answer that is not JSON or fails the schema (`VALIDATION_FAILED`,
 * thrown with history consistent) is a rejected candidate: the next attempt tells the model
 * why. Transport errors propagate.
 */
export async function runJsonAttempt(options: AttemptOptions): Promise<JsonAttemptOutcome> {
  const { client, progress, label } = options;
  let done: Done | undefined;
  try {
    for await (const event of client.run(
      options.prompt,
      options.signal ? { signal: options.signal } : {},
    )) {
      if (event.type === 'step_end') progress.iterations += 1;
      else if (event.type === 'done') done = event;
    }
  } catch (error) {
    if (!isAgentError(error, 'VALIDATION_FAILED')) throw error;
    const problem = error.context?.problem;
    return { ok: true, rejected: typeof problem === 'string' ? problem : error.message };
  }
  const position = { attempt: progress.attempt, iteration: progress.iteration };
  if (done?.status === 'cancelled') return { ok: false, error: cancelledError(label, position) };
  if (done?.status === 'max_iterations') return maxIterationsError(options, position);
  if (done?.status === 'awaiting_tool_results') {
    // defineAgent rejects external tools and approvals, and executeAgent sets no hooks that ask.
    throw new Error(`${label}: the run paused for tool results, which executeAgent cannot give`);
  }
  // The responseFormat schema describes an object: a completed run carries one.
  return isRecord(done?.output)
    ? { ok: true, candidate: done.output }
    : { ok: true, rejected: 'The answer is not a JSON object' };
}
