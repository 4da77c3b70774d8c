import { AgentError, errorMessage } from '../errors/agent-error.js';
import type { LiveWorkerConnection } from './live-worker-connection.js';

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
  return new OnDemandConnection(source, options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS);
}

/**
 * The connection a page holds: the worker code (its session, the protocol) loads by `import()`
 * on the first call, so a page that defines worker tools but never runs one ships none of it.
 * Once loaded, calls go straight to it (sent at once, not after a microtask).
 */
class OnDemandConnection implements WorkerConnection {
  readonly #source: WorkerSource;
  readonly #cancelGraceMs: number;
  #live: LiveWorkerConnection | undefined;
  #loading: Promise<LiveWorkerConnection> | undefined;

  constructor(source: WorkerSource, cancelGraceMs: number) {
    this.#source = source;
    this.#cancelGraceMs = cancelGraceMs;
  }

  call(
    name: string,
    input: Record<string, unknown>,
    options?: WorkerCallOptions,
  ): Promise<unknown> {
    if (this.#live) return this.#live.call(name, input, options);
    this.#loading ??= import('./live-worker-connection.js').then(
      ({ LiveWorkerConnection }) =>
        (this.#live = new LiveWorkerConnection(this.#source, this.#cancelGraceMs)),
    );
    return this.#loading.then(
      (live) => live.call(name, input, options),
      (error: unknown) => {
        this.#loading = undefined; // the next call tries again
        throw new AgentError(
          'WORKER_FAILED',
          `Tool "${name}" could not load the worker connection's code: ${errorMessage(error)}. Check that the library's chunks are served beside it`,
          { cause: error, context: { tool: name } },
        );
      },
    );
  }

  terminate(): void {
    this.#live?.terminate(); // before the first call there is no worker to end
  }
}
