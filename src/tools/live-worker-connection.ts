import { AgentError, errorMessage, isAgentError } from '../errors/agent-error.js';
import type {
  WorkerCallOptions,
  WorkerConnection,
  WorkerFactory,
  WorkerSource,
} from './worker-connection.js';
import { WorkerSession, type SessionCall } from './worker-session.js';

/**
 * A worker connection's working part (see {@link connectWorker}): spawns the worker on the
 * first call and again after it was terminated, routes calls and their cancellation.
 */
export class LiveWorkerConnection implements WorkerConnection {
  readonly #factory: WorkerFactory;
  readonly #cancelGraceMs: number;
  #session: WorkerSession | undefined;
  #nextId = 0;

  constructor(source: WorkerSource, cancelGraceMs: number) {
    this.#factory = toFactory(source);
    this.#cancelGraceMs = cancelGraceMs;
  }

  call(
    name: string,
    input: Record<string, unknown>,
    options: WorkerCallOptions = {},
  ): Promise<unknown> {
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(cancellation(signal.reason, name));
    let session: WorkerSession;
    try {
      session = this.#currentSession();
    } catch (error) {
      return Promise.reject(startFailure(name, error));
    }
    const id = ++this.#nextId;
    return new Promise<unknown>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      // The session is looked up when the call is stopped: a restart may have moved it to a fresh worker.
      const stop = (error: AgentError) => this.#session?.cancel(id, error, this.#cancelGraceMs);
      const onAbort = () => stop(cancellation(signal?.reason, name));
      const cleanUp = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      session.start({
        message: {
          type: 'tool-call',
          id,
          name,
          input,
          toolUseId: options.toolUseId ?? `worker-call-${id}`,
        },
        resolve: (value) => {
          cleanUp();
          resolve(value);
        },
        reject: (error) => {
          cleanUp();
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () =>
            stop(new AgentError('TOOL_TIMEOUT', `Tool "${name}" timed out after ${timeoutMs} ms`)),
          timeoutMs,
        );
      }
    });
  }

  terminate(): void {
    this.#session?.end('its worker was terminated');
  }

  /** The live session, spawning a worker if there is none; throws what the factory throws. */
  #currentSession(): WorkerSession {
    if (this.#session) return this.#session;
    const worker = this.#factory();
    const session = new WorkerSession(worker, (ended, waiting) =>
      this.#onSessionEnd(ended, waiting),
    );
    this.#session = session;
    return session;
  }

  #onSessionEnd(ended: WorkerSession, waiting: SessionCall[]): void {
    if (this.#session === ended) this.#session = undefined;
    if (waiting.length === 0) return;
    let next: WorkerSession;
    try {
      next = this.#currentSession();
    } catch (error) {
      for (const call of waiting) call.reject(startFailure(call.message.name, error));
      return;
    }
    for (const call of waiting) next.start(call);
  }
}

function toFactory(source: WorkerSource): WorkerFactory {
  if (typeof source === 'function') return source;
  return () => {
    if (typeof Worker === 'undefined')
      throw new TypeError('Web Workers are not available in this environment');
    return new Worker(source, { type: 'module' });
  };
}

function startFailure(toolName: string, error: unknown): AgentError {
  return new AgentError(
    'WORKER_FAILED',
    `Tool "${toolName}" could not start its worker: ${errorMessage(error)}`,
    {
      cause: error,
      context: { tool: toolName },
    },
  );
}

/** The error a cancelled call rejects with: the signal's AgentError reason (e.g. `TOOL_TIMEOUT`), or `EXECUTION_CANCELLED`. */
function cancellation(reason: unknown, toolName: string): AgentError {
  if (isAgentError(reason))
    return reason instanceof AgentError ? reason : AgentError.fromJSON(reason);
  return new AgentError('EXECUTION_CANCELLED', `Tool "${toolName}" was cancelled`, {
    cause: reason,
  });
}
