import { AgentError, isAgentError } from '../errors/agent-error.js';
import type { PullOptions } from './local-models.js';
import { PullReporter } from './pull-reporter.js';
import { cancelled } from './server-http.js';

/**
 * Runs one server's download (`attempt`) under a {@link PullReporter}: asks again, up to
 * `retries` times, when the connection drops before the server said the model is ready (the
 * server keeps what it downloaded, so each attempt resumes), and turns an abort into
 * `EXECUTION_CANCELLED`. `attempt` resolves once the server said "ready", after calling
 * `reporter.finish()`.
 */
export async function retryingPull(
  options: PullOptions,
  attempt: (reporter: PullReporter, signal: AbortSignal | undefined) => Promise<void>,
): Promise<void> {
  const { signal } = options;
  const retries = options.retries ?? 2;
  const reporter = new PullReporter(options.onProgress);
  if (isAborted(signal)) throw cancelled(signal);
  reporter.start();
  try {
    for (let tries = 0; ; tries++) {
      try {
        await attempt(reporter, signal);
        return;
      } catch (error) {
        if (isAborted(signal)) throw cancelled(signal, error);
        if (!isAgentError(error, 'NETWORK_ERROR') || tries >= retries) throw error;
      }
    }
  } finally {
    reporter.stop();
  }
}

/** The error of a download whose stream ended before the server said it was done. */
export function droppedPull(name: string): AgentError {
  return new AgentError(
    'NETWORK_ERROR',
    `The download of "${name}" stopped before the server said it was complete`,
  );
}

/** A function, not an inline check: the attempt may have aborted after TypeScript's narrowing. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
