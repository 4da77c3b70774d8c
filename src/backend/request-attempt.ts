import { AgentError, errorMessage, isAgentError } from '../errors/agent-error.js';

/** setTimeout fires at once for delays above 2^31 - 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The abort reason a {@link RequestAttempt} uses when its deadline passes. */
class DeadlineExceeded extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * The limits of one request, in ms (`Infinity` or `0`: none). `firstByte` covers the wait for
 * the response headers and the first body byte — a local server loading a model or reading a
 * long prompt sends nothing for minutes; `idle` the silence between body reads after that.
 */
export interface AttemptTimeouts {
  firstByte: number;
  idle: number;
}

/**
 * One HTTP request's lifetime: the signal `fetch` gets (so an abort reaches the request and its
 * body) plus a deadline re-armed around every await ({@link guard}): no first byte within
 * `timeouts.firstByte`, or no body bytes for `timeouts.idle` once the body has started
 * ({@link markStarted}).
 *
 * An `AbortController` of its own, linked to the caller's signal, only with a `firstByte` limit:
 * only that deadline must stop a `fetch` still waiting for headers. Otherwise `fetch` gets the
 * caller's signal as it is (or none), and a deadline or abort once the body has started rejects
 * the pending read, after which the body is cancelled (`BodyTextReader.close`). In Node a signal
 * handed to `fetch` costs about 9 % of a short request's CPU (undici follows it with listeners
 * and a finalizer), and a controller more: a request that nothing can stop before its headers
 * pays neither.
 *
 * One timer serves every guarded await: re-arming moves a timestamp, and the timer, when
 * it fires early, sleeps again until that time. A stream read in thousands of small
 * pieces (a server flushing each token) must not pay a setTimeout + clearTimeout each.
 */
export class RequestAttempt {
  /** Only with a `firstByte` limit (see the class comment). */
  readonly #controller: AbortController | undefined;
  readonly #userSignal: AbortSignal | undefined;
  /** Why the attempt aborted: the caller's signal's reason (an AbortError unless it gave one), or the deadline's. */
  #reason: unknown;
  readonly #unlink: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** `Date.now()` after which the pending guard times out. */
  #deadline = 0;
  /** When the armed timer fires. */
  #timerAt = 0;
  /** What the latest guard waits for. */
  #waitingFor = '';
  /**
   * True once {@link #abort} ran, the only way the controller aborts: read per body read
   * instead of `signal.aborted` (three getter calls into Node's AbortSignal each).
   */
  #aborted = false;
  /** Rejects the pending guard (on abort); undefined when none is pending. */
  #reject: ((error: Error) => void) | undefined;
  /** What we were waiting for when the deadline passed, e.g. "the response headers". */
  timedOutWaitingFor: string | undefined;

  /** True once a body byte arrived: the idle limit applies from then on. */
  #started = false;
  /** The limit of the pending guard (what a timeout message names). */
  timeoutMs: number;

  constructor(
    userSignal: AbortSignal | undefined,
    readonly timeouts: AttemptTimeouts,
  ) {
    this.timeoutMs = timeouts.firstByte;
    this.#userSignal = userSignal;
    if (Number.isFinite(timeouts.firstByte) && timeouts.firstByte > 0)
      this.#controller = new AbortController();
    const onAbort = () => this.#abort(userSignal?.reason);
    if (userSignal?.aborted) onAbort();
    else userSignal?.addEventListener('abort', onAbort, { once: true });
    this.#unlink = () => userSignal?.removeEventListener('abort', onAbort);
  }

  /**
   * Aborts the request (when it has a controller of its own) and rejects the pending guard.
   * Only this class aborts its controller, so it rejects directly rather than listening to its
   * own signal (a listener per request).
   */
  #abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#reject?.(asError(reason));
  }

  /**
   * For `fetch`: aborts when the caller aborts, or (with a `firstByte` limit) when the deadline
   * passes. Undefined when nothing can stop the request before its headers.
   */
  get signal(): AbortSignal | undefined {
    return this.#controller?.signal ?? this.#userSignal;
  }

  /** The body has started: from now on the silence between reads is limited by `timeouts.idle`. */
  markStarted(): void {
    this.#started = true;
  }

  /** True when the caller asked to stop. */
  get cancelled(): boolean {
    return this.#userSignal?.aborted === true;
  }

  /**
   * Awaits `promise`, but rejects as soon as the attempt aborts or `timeoutMs` passes
   * without it settling. The race matters: an injected `fetch` or body stream may ignore
   * the signal, and we must still stop.
   */
  guard<T>(promise: Promise<T>, waitingFor: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Guards never overlap (one request, read in sequence), so this one is the pending one.
      // Hot path: per body read (no helper call in the callbacks).
      promise.then(
        (value) => {
          this.#reject = undefined;
          resolve(value);
        },
        (error: unknown) => {
          this.#reject = undefined;
          reject(asError(error));
        },
      );
      if (this.#aborted) {
        reject(asError(this.#reason));
        return;
      }
      this.#reject = reject;
      this.#waitingFor = waitingFor;
      this.timeoutMs = this.#started ? this.timeouts.idle : this.timeouts.firstByte;
      if (Number.isFinite(this.timeoutMs) && this.timeoutMs > 0) {
        this.#deadline = Date.now() + this.timeoutMs;
        // The idle limit may be shorter than the first-byte one the timer was armed for.
        if (this.#timer !== undefined && this.#deadline < this.#timerAt) {
          clearTimeout(this.#timer);
          this.#timer = undefined;
        }
        if (this.#timer === undefined) this.#arm(this.timeoutMs);
      } else {
        this.#deadline = Infinity;
      }
    });
  }

  #arm(delay: number): void {
    this.#timerAt = Date.now() + delay;
    this.#timer = setTimeout(this.#onTimer, Math.min(delay, MAX_TIMER_MS));
  }

  readonly #onTimer = (): void => {
    this.#timer = undefined;
    // Nothing pending: the next guard arms a fresh timer.
    if (this.#reject === undefined) return;
    const waitingFor = this.#waitingFor;
    const left = this.#deadline - Date.now();
    if (left > 0) {
      this.#arm(left);
      return;
    }
    this.timedOutWaitingFor = waitingFor;
    this.#abort(new DeadlineExceeded(`no ${waitingFor} within ${this.timeoutMs} ms`));
  };

  /**
   * Turns whatever a fetch or a body read threw into the transport's error: the caller's
   * abort → `EXECUTION_CANCELLED`, the deadline → `NETWORK_ERROR` "timed out", any other
   * rejection (a `TypeError` from fetch, a reset connection) → `NETWORK_ERROR`.
   * `AgentError`s pass through.
   */
  toAgentError(
    error: unknown,
    context: { url: string; attempts: number; hint?: string | undefined; midStream?: boolean },
  ): AgentError {
    if (isAgentError(error)) return error;
    const info = { url: context.url, attempts: context.attempts };
    if (this.cancelled) {
      return new AgentError('EXECUTION_CANCELLED', `Request to ${context.url} was cancelled`, {
        cause: error,
        context: info,
      });
    }
    const tries = context.attempts > 1 ? ` (${context.attempts} attempts)` : '';
    if (this.timedOutWaitingFor !== undefined) {
      return new AgentError(
        'NETWORK_ERROR',
        `Request to ${context.url} timed out after ${this.timeoutMs} ms waiting for ${this.timedOutWaitingFor}${tries}`,
        { cause: error, context: { ...info, timeout: this.timeoutMs } },
      );
    }
    if (context.midStream) {
      return new AgentError(
        'NETWORK_ERROR',
        `The connection to ${context.url} failed mid-stream: ${describeNetworkError(error)}`,
        {
          cause: error,
          context: info,
        },
      );
    }
    const hint = context.hint ? `\n${context.hint}` : '';
    return new AgentError(
      'NETWORK_ERROR',
      `Could not reach ${context.url}: ${describeNetworkError(error)}${tries}${hint}`,
      {
        cause: error,
        context: info,
      },
    );
  }

  /** Stops the deadline and unlinks from the caller's signal. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#unlink();
  }
}

/** Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND…) is in `cause`. */
function describeNetworkError(error: unknown): string {
  const message = errorMessage(error);
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause === undefined) return message;
  const causeMessage = errorMessage(cause);
  return causeMessage && causeMessage !== message ? `${message} (${causeMessage})` : message;
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(errorMessage(reason), { cause: reason });
}
