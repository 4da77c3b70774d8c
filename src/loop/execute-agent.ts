import { isAgentError, type AgentError } from '../errors/agent-error.js';
import { cancelledError, runAttempt, type AgentProgress } from './agent-attempt.js';
import { CallbackRunner, type AgentCallbacks, type AgentRunState } from './agent-callbacks.js';
import { agentHooks } from './agent-hooks.js';
import type {
  AgentPosition,
  ExecuteAgentError,
  ExecuteAgentResult,
  ValidationFailure,
} from './agent-result.js';
import { Client } from './client.js';
import { SUBMIT_TOOL_NAME, type Agent, type AgentOutput } from './define-agent.js';
import { OutputRecorder } from './output-recorder.js';
import { createOutputTools } from './output-tools.js';
import { runJsonAttempt } from './json-attempt.js';
import { validateOutput } from './output-validation.js';

/** Options of {@link executeAgent}. */
export interface ExecuteAgentOptions {
  callbacks?: AgentCallbacks;
  /** Aborts the execution: checked before every model call, passed to fetch and tools. */
  signal?: AbortSignal;
}

/**
 * Runs a {@link defineAgent} agent on `input` until it produces a valid output. Each attempt
 * lets the model call helpers until it finalises an output (its first output call, or
 * `submit` with reflection); the output is then checked against the schema and the
 * validators. A rejected output starts the next attempt in the same conversation, with the
 * error as a new user message. One `Client` runs every attempt.
 *
 * Resolves `{ ok: false, error }` for every failure of the run itself (limits, invalid
 * outputs, abort, HTTP and network errors); tool errors go back to the model.
 * @throws TypeError for a programmer error (e.g. neither `baseURL` nor `backend`); whatever
 * `buildPrompt` throws.
 * @example
 * const controller = new AbortController();
 * const result = await executeAgent(extractContact, emailText, {
 *   signal: controller.signal,
 *   callbacks: { onToolCall: (state, name) => console.log(`attempt ${state.attempt}: ${name}`) },
 * });
 * if (result.ok) save(result.output);
 * else console.warn(result.error.code, result.error.message, result.metadata.tokens);
 */
export async function executeAgent<Input, Output>(
  agent: Agent<Input, Output>,
  input: Input,
  options: ExecuteAgentOptions = {},
): Promise<ExecuteAgentResult<Output>> {
  const startedAt = performance.now();
  const { signal } = options;
  const label = agent.name === undefined ? 'Agent' : `Agent "${agent.name}"`;
  const callbacks = new CallbackRunner(options.callbacks);
  const recorder = new OutputRecorder({ reflection: agent.output.reflection !== undefined });
  const progress: AgentProgress = { attempt: 0, iteration: 0, iterations: 0 };
  let attempts = 0;
  const state = (): AgentRunState => ({
    attempt: progress.attempt,
    iteration: progress.iteration,
    tokens: client.usage,
  });
  const json = agent.output.mode === 'json';
  const client = new Client({
    ...agent.modelOptions,
    systemPrompt: agent.systemPrompt,
    // json mode: the answer itself, constrained to the output's JSON Schema, is the candidate.
    ...(json
      ? { responseFormat: { schema: agent.output.parameters, name: agent.output.name } }
      : {}),
    tools: [...agent.helpers, ...(json ? [] : createOutputTools(agent.output, recorder))],
    autoExecuteTools: true,
    // Asked before each model call that follows a round of tools (iterationCount = rounds
    // in this attempt): stopping here ends the attempt's run with `done` `max_iterations`.
    loopStrategy: ({ iterationCount }) => {
      if (recorder.output !== undefined || iterationCount >= agent.maxIterationsPerAttempt)
        return false;
      progress.iteration = iterationCount + 1;
      return true;
    },
    hooks: agentHooks({ recorder, callbacks, state }),
  });
  const finish = (
    outcome: { ok: true; output: Output } | { ok: false; error: ExecuteAgentError },
  ): ExecuteAgentResult<Output> => ({
    ...outcome,
    metadata: {
      tokens: client.usage,
      attempts,
      iterations: progress.iterations,
      latencyMs: performance.now() - startedAt,
      callbackErrors: [...callbacks.errors],
      history: client.history,
    },
  });
  try {
    let prompt = await agent.buildPrompt(input);
    const failures: ValidationFailure[] = [];
    for (let attempt = 1; attempt <= agent.maxAttempts; attempt += 1) {
      progress.attempt = attempt;
      progress.iteration = 1;
      if (signal?.aborted === true)
        return finish({ ok: false, error: cancelledError(label, position(progress)) });
      attempts = attempt;
      recorder.startAttempt();
      await callbacks.run('onAttemptStart', (onAttemptStart) => onAttemptStart(state()));
      const attemptOptions = {
        client,
        prompt,
        signal,
        recorder,
        progress,
        maxIterations: agent.maxIterationsPerAttempt,
        label,
      };
      const outcome = json
        ? await runJsonAttempt(attemptOptions)
        : await runAttempt(attemptOptions);
      if (!outcome.ok) return finish(outcome);
      const validation =
        'rejected' in outcome
          ? { ok: false as const, message: outcome.rejected }
          : await validateOutput(outcome.candidate, {
              schema: agent.output.schema,
              validators: agent.validators,
            });
      if (validation.ok) return finish({ ok: true, output: validation.value });
      failures.push({ attempt, message: validation.message });
      await callbacks.run('onValidationFailure', (onValidationFailure) =>
        onValidationFailure(state(), validation.message),
      );
      prompt = validationFeedback(agent.output, validation.message);
    }
    const last = failures.at(-1)?.message ?? '';
    return finish({
      ok: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: `${label}: the output of each of ${agent.maxAttempts} attempt(s) failed validation; the last: ${last}`,
        context: { failures },
      },
    });
  } catch (error) {
    if (!isAgentError(error)) throw error;
    return finish({ ok: false, error: thrownError(error, position(progress)) });
  } finally {
    await client.close();
  }
}

/** The user message that opens the next attempt: what was wrong, and what to do. */
function validationFeedback(
  output: Pick<AgentOutput<unknown>, 'mode' | 'name'> & { reflection: unknown },
  message: string,
): string {
  const next =
    output.mode === 'json'
      ? 'answer again with JSON that matches the schema'
      : output.reflection
        ? `call "${output.name}" with a corrected output, then "${SUBMIT_TOOL_NAME}"`
        : `call "${output.name}" again with a corrected output`;
  return `Your output was rejected: ${message}\nFix this and ${next}.`;
}

function position(progress: AgentProgress): AgentPosition {
  return { attempt: progress.attempt, iteration: progress.iteration };
}

/** A failure the loop threw (transport, unusable stream) as a result. */
function thrownError(error: AgentError, where: AgentPosition): ExecuteAgentError {
  const context = {
    ...error.context,
    ...where,
    ...(error.status === undefined ? {} : { status: error.status }),
  };
  const { code, message } = error;
  if (code === 'INVALID_RESPONSE') return { code, message, context };
  if (code === 'EXECUTION_CANCELLED')
    return { code, message, context: { phase: 'iteration', ...where } };
  if (
    code === 'MAX_ITERATIONS' ||
    code === 'VALIDATION_FAILED' ||
    code === 'SUBMIT_BEFORE_OUTPUT'
  ) {
    // The loop reports these as values, never throws them: a thrown one is a bug.
    throw error;
  }
  return { code, message, context };
}
