import { AgentError, isAgentError } from '../errors/agent-error.js';
import { withSetupFix } from '../errors/with-setup-fix.js';
import { BodyTextReader } from './body-text-reader.js';
import { httpError } from './http-error.js';
import { RequestAttempt, type AttemptTimeouts } from './request-attempt.js';
import { neverStarted } from './never-started.js';
import { isRetryableStatus, retryDelay, type RetryDelayOptions } from './retry-delay.js';
import type { Sleep } from './sleep.js';

/** Everything {@link openResponse} needs for one logical request. */
export interface OpenResponseOptions {
  url: string;
  init: Omit<RequestInit, 'signal'>;
  fetch: typeof globalThis.fetch;
  timeouts: AttemptTimeouts;
  maxRetries: number;
  sleep: Sleep;
  retryDelay?: RetryDelayOptions | undefined;
  signal?: AbortSignal | undefined;
  /** Where we run, for the CORS hint; undefined outside a page. */
  pageOrigin?: (() => string | undefined) | undefined;
}

/** A 2xx response whose body has started: `firstText` holds what the first bytes decoded to. */
export interface OpenedResponse {
  response: Response;
  body: BodyTextReader;
  firstText: string;
  /** Maps errors thrown while reading the rest of the body. */
  attempt: RequestAttempt;
  /** Requests made, retries included. */
  attempts: number;
  /** Cancels the body (if unread), stops timers, unlinks from the caller's signal. */
  close(reason?: unknown): void;
  /** {@link close} for a stream that ended on purpose: the body may finish on its own. */
  release(): void;
}

const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * POSTs and waits for the first body bytes, however long the server takes (a model loading,
 * a long prompt being read), within `timeouts.firstByte` when set. Sends the request again
 * (up to `maxRetries` times, with backoff that honours `Retry-After`) only when the server
 * provably did not start the work: a 408/409/429/5xx answer, or a connection that never
 * opened (refused, DNS). A request the server may have accepted — a timeout, a connection
 * dropped after it was sent, a browser's bare "Failed to fetch" — is never sent again: on a
 * local server each re-send starts the prompt over, or queues behind the first.
 *
 * @throws AgentError `HTTP_ERROR` (status ≥ 400, with the server's message),
 *   `NETWORK_ERROR` (unreachable, timed out; with a CORS hint for local servers in a page),
 *   `EXECUTION_CANCELLED` (the caller aborted, also during a backoff).
 */
export async function openResponse(options: OpenResponseOptions): Promise<OpenedResponse> {
  const { url, maxRetries } = options;
  for (let retry = 0; ; retry++) {
    if (options.signal?.aborted) {
      throw new AgentError('EXECUTION_CANCELLED', `Request to ${url} was cancelled`, {
        cause: options.signal.reason,
      });
    }
    const attempts = retry + 1;
    const attempt = new RequestAttempt(options.signal, options.timeouts);
    let body: BodyTextReader | undefined;
    let retryHeaders: Headers | undefined;
    try {
      const response = await attempt.guard(
        // `signal: null` is no signal, for undici and browsers alike.
        options.fetch(url, { ...options.init, signal: attempt.signal ?? null }),
        'the response headers',
      );
      body = new BodyTextReader(response.body, attempt);
      if (!response.ok) {
        const bodyText = await readErrorBody(body);
        if (attempt.cancelled) throw attempt.signal?.reason;
        const error = await withSetupFix(httpError(response, url, bodyText, attempts));
        // A server setting (llama.cpp's 500 without --jinja) fails every retry the same way.
        const permanent = isAgentError(error) && error.context?.fix !== undefined;
        if (permanent || !isRetryableStatus(response.status) || retry >= maxRetries) throw error;
        retryHeaders = response.headers;
      } else {
        let firstText = '';
        while (body.bytesReceived === 0) {
          const text = await body.read();
          if (text === undefined) break;
          firstText += text;
        }
        const opened = body;
        return {
          response,
          body: opened,
          firstText,
          attempt,
          attempts,
          close(reason) {
            opened.close(reason);
            attempt.dispose();
          },
          release() {
            opened.release();
            attempt.dispose();
          },
        };
      }
    } catch (error) {
      let failure = attempt.toAgentError(error, { url, attempts });
      const again =
        failure.code === 'NETWORK_ERROR' &&
        retry < maxRetries &&
        attempt.timedOutWaitingFor === undefined &&
        body === undefined &&
        neverStarted(error);
      if (!again) {
        if (failure.code === 'NETWORK_ERROR') {
          const hint = await networkHint(url, options.pageOrigin);
          failure = attempt.toAgentError(error, { url, attempts, hint });
        }
        body?.close(error);
        attempt.dispose();
        throw failure;
      }
    }
    body?.close();
    attempt.dispose();
    await options.sleep(retryDelay(retry, retryHeaders, options.retryDelay), options.signal);
  }
}

/** The error body, if it arrives in time; a failure to read it must not hide the status. */
async function readErrorBody(body: BodyTextReader): Promise<string | undefined> {
  try {
    return await body.readUpTo(ERROR_BODY_LIMIT);
  } catch {
    return undefined;
  }
}

/**
 * The CORS hint for a server the page could not reach. Its table of servers loads only now, on
 * the failure it explains; when even that chunk cannot load (the page's own server is down too)
 * the error goes out without it.
 */
async function networkHint(
  url: string,
  currentOrigin: (() => string | undefined) | undefined,
): Promise<string | undefined> {
  try {
    const { corsHint, localNetworkPermission, pageOrigin } = await import('./cors-hint.js');
    const origin = (currentOrigin ?? pageOrigin)();
    return origin === undefined
      ? undefined
      : corsHint(url, origin, await localNetworkPermission(url));
  } catch {
    return undefined;
  }
}
