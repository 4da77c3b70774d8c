import { AgentError, errorMessage } from '../errors/agent-error.js';
import { parseWorkerMessage, type HostMessage, type ToolCallMessage } from './worker-protocol.js';

/** One call as the session tracks it: its message and how to settle its promise. */
export interface SessionCall {
  readonly message: ToolCallMessage;
  resolve(value: unknown): void;
  reject(error: AgentError): void;
}

interface TrackedCall extends SessionCall {
  posted: boolean;
}

/** Called once when a session ends, with the calls it never posted and hands over to a fresh worker. */
export type SessionEndHandler = (session: WorkerSession, waiting: SessionCall[]) => void;

/**
 * One spawned worker and the calls in flight on it. Internal to `connectWorker`: the
 * connection replaces a session once it has ended (crash, stuck handler, terminate).
 *
 * Calls are posted only while the worker is known to be healthy: before `tools-ready`, and
 * while a cancelled call is within its grace period, new calls wait. If the grace period
 * ends in a restart, the waiting calls never touched the old worker and move to the new one.
 */
export class WorkerSession {
  readonly #worker: Worker;
  readonly #onEnd: SessionEndHandler;
  readonly #calls = new Map<number, TrackedCall>();
  /** Calls settled on the page but still running in the worker, with their grace timers. */
  readonly #cancelling = new Map<number, ReturnType<typeof setTimeout>>();
  #ready = false;
  #ended = false;

  constructor(worker: Worker, onEnd: SessionEndHandler) {
    this.#worker = worker;
    this.#onEnd = onEnd;
    worker.addEventListener('message', this.#onMessage);
    worker.addEventListener('error', this.#onError);
    worker.addEventListener('messageerror', this.#onMessageError);
  }

  /** Posts the call, or holds it until the worker is listening and no cancelled call is pending. */
  start(call: SessionCall): void {
    const tracked: TrackedCall = { ...call, posted: false };
    this.#calls.set(call.message.id, tracked);
    if (this.#canPost()) this.#postCall(tracked);
  }

  /**
   * Settles call `id` with `error` and stops it in the worker: a `tool-cancel` message,
   * then, if the handler has not settled within `graceMs`, the whole worker is terminated
   * (a handler ignoring its signal, or a thread stuck in a loop, cannot be stopped otherwise).
   */
  cancel(id: number, error: AgentError, graceMs: number): void {
    const call = this.#calls.get(id);
    if (!call) return;
    this.#calls.delete(id);
    call.reject(error);
    if (!call.posted) return;
    const restart = () =>
      this.end(
        `its worker was restarted: tool "${call.message.name}" was stopped (${error.message}) and did not finish within ${graceMs} ms`,
        { handOverWaiting: true },
      );
    if (graceMs <= 0) {
      restart();
      return;
    }
    // Code and message only: a context the caller attached might not survive structured clone.
    this.#post({
      type: 'tool-cancel',
      id,
      reason: { name: 'AgentError', code: error.code, message: error.message },
    });
    this.#cancelling.set(id, setTimeout(restart, graceMs));
  }

  /**
   * Terminates the worker. Every posted call fails with `WORKER_FAILED`; calls not yet
   * posted fail too, unless `handOverWaiting` (a restart) passes them to `onEnd`.
   */
  end(reason: string, options: { cause?: unknown; handOverWaiting?: boolean } = {}): void {
    const { cause, handOverWaiting = false } = options;
    if (this.#ended) return;
    this.#ended = true;
    this.#worker.removeEventListener('message', this.#onMessage);
    this.#worker.removeEventListener('error', this.#onError);
    this.#worker.removeEventListener('messageerror', this.#onMessageError);
    this.#worker.terminate();
    for (const timer of this.#cancelling.values()) clearTimeout(timer);
    this.#cancelling.clear();
    const calls = [...this.#calls.values()];
    this.#calls.clear();
    const waiting = handOverWaiting ? calls.filter((call) => !call.posted) : [];
    for (const call of calls) {
      if (waiting.includes(call)) continue;
      const { name } = call.message;
      call.reject(
        new AgentError('WORKER_FAILED', `Tool "${name}" did not complete: ${reason}`, {
          ...(cause === undefined ? {} : { cause }),
          context: { tool: name },
        }),
      );
    }
    this.#onEnd(this, waiting);
  }

  readonly #onMessage = (event: MessageEvent<unknown>): void => {
    const message = parseWorkerMessage(event.data);
    if (!message) return;
    switch (message.type) {
      case 'tools-ready':
        this.#ready = true;
        this.#flush();
        return;
      case 'tool-result':
        this.#take(message.id)?.resolve(message.value);
        return;
      case 'tool-error':
        this.#take(message.id)?.reject(AgentError.fromJSON(message.error));
        return;
      default: {
        // Exhaustive; not assertNever (events.ts): this file loads lazily, and importing a
        // first-load module from it splits that module off esbuild apps' first load.
        const unknown: never = message;
        throw new Error(`Unknown worker message: ${JSON.stringify(unknown)}`);
      }
    }
  };

  readonly #onError = (event: Event): void => {
    // A module worker that fails to load (404, wrong MIME type, syntax error) fires a plain
    // Event without details (Chromium 156); an uncaught exception fires an ErrorEvent.
    const details =
      event instanceof ErrorEvent && event.message
        ? `${event.message}${event.filename ? ` (${event.filename}:${event.lineno})` : ''}`
        : 'the worker script failed to load or crashed (see the console for details)';
    // Handled: the error reaches the caller as WORKER_FAILED, so it is not also reported as
    // an uncaught error of the page (the spec re-throws unhandled worker errors in the page).
    event.preventDefault();
    const cause: unknown = event instanceof ErrorEvent ? (event.error ?? event) : event;
    this.end(`its worker failed: ${details}`, { cause });
  };

  readonly #onMessageError = (event: MessageEvent): void => {
    this.end('its worker sent a message that could not be deserialized', { cause: event });
  };

  /** The call a response is for; a response to a cancelled call just clears its grace timer. */
  #take(id: number): TrackedCall | undefined {
    const timer = this.#cancelling.get(id);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.#cancelling.delete(id);
      this.#flush();
      return undefined;
    }
    const call = this.#calls.get(id);
    this.#calls.delete(id);
    return call;
  }

  #canPost(): boolean {
    return this.#ready && this.#cancelling.size === 0;
  }

  #flush(): void {
    if (!this.#canPost()) return;
    for (const call of this.#calls.values()) if (!call.posted) this.#postCall(call);
  }

  #postCall(call: TrackedCall): void {
    call.posted = true;
    try {
      this.#worker.postMessage(call.message);
    } catch (error) {
      // DataCloneError: a schema transform produced something structured clone refuses.
      this.#calls.delete(call.message.id);
      call.reject(
        new AgentError(
          'TOOL_FAILED',
          `Tool "${call.message.name}" input could not be sent to its worker: ${errorMessage(error)}`,
          { cause: error },
        ),
      );
    }
  }

  #post(message: HostMessage): void {
    this.#worker.postMessage(message);
  }
}
