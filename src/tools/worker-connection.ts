import { AgentError, errorMessage, isAgentError } from '../errors/agent-error.js';
import { WorkerSession, type SessionCall } from './worker-session.js';

/** Creates the worker: `() => new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module' })`. */
export type WorkerFactory = () => Worker;

/**
 * Where a tool worker comes from: a factory (the form bundlers understand), or the URL of
 * an already-built module worker script.
 */
export type WorkerSource = WorkerFactory | URL | string;

/** Options for {@link connectWorker}. */
export interface WorkerConnectionOptions {
  /**
   * How long a cancelled or timed-out handler may take to settle after its signal is
   * aborted before the worker is terminated (and its other calls fail). Default 100 ms;
   * `0` terminates at once.
   */
  cancelGraceMs?: number;
}

/** Options for one {@link WorkerConnection.call}. */
export interface WorkerCallOptions {
  /** Aborting it rejects the call with `EXECUTION_CANCELLED` (or the signal's `AgentError` reason). */
  signal?: AbortSignal | undefined;
  /** Passed to the handler; defaults to `worker-call-<id>`. */
  toolUseId?: string | undefined;
  /** Rejects the call with `TOOL_TIMEOUT` after this many milliseconds. */
  timeoutMs?: number | undefined;
}

/** A lazily spawned worker running `exposeTools`, shared by any number of tools. */
export interface WorkerConnection {
  /**
   * Runs tool `name` in the worker. Many calls may be in flight at once.
   * Rejects with an `AgentError`: the handler's own code, `TOOL_FAILED` for a plain throw,
   * `TOOL_NOT_FOUND`, `TOOL_TIMEOUT`, `EXECUTION_CANCELLED`, or `WORKER_FAILED` when the
   * worker failed to load, crashed, or was restarted because another call would not stop.
   */
  call(name: string, input: Record<string, unknown>, options?: WorkerCallOptions): Promise<unknown>;
  /** Terminates the worker now (calls in flight fail with `WORKER_FAILED`); the next call spawns a fresh one. */
  terminate(): void;
}

const DEFAULT_CANCEL_GRACE_MS = 100;

/**
 * Connects to a module worker that calls `exposeTools()` from `open-agent/worker`. The
 * worker is spawned on the first call, and again after it was terminated (timeout, abort
 * of a handler that ignores its signal, crash), so the next call always gets a live one.
 *
 * @example
 * const tools = connectWorker(() => new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module' }));
 * const hash = workerTool({ name: 'sha256', description: 'Hashes text', input: z.object({ text: z.string() }), worker: tools });
 * const zip = workerTool({ name: 'zip', description: 'Zips files', input: zipSchema, worker: tools });
 */
export function connectWorker(
  source: WorkerSource,
  options: WorkerConnectionOptions = {},
): WorkerConnection {
  return new ToolWorkerConnection(
    toFactory(source),
    options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS,
  );
}

class ToolWorkerConnection implements WorkerConnection {
  readonly #factory: WorkerFactory;
  readonly #cancelGraceMs: number;
  #session: WorkerSession | undefined;
  #nextId = 0;

  constructor(factory: WorkerFactory, cancelGraceMs: number) {
    this.#factory = factory;
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
