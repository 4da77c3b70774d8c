import { withSetupFix } from '../errors/with-setup-fix.js';
import type { ChatBackend, ChatRequest, WaitReport } from '../types/chat-request.js';
import { isRecord } from '../types/is-record.js';
import { WaitReporter } from './wait-reporter.js';

export type { TimeoutOptions } from './timeouts.js';
import { chunkStream } from './chunk-stream.js';
import { openResponse } from './open-response.js';
import { createOpenAIBodyReader } from './openai-body-reader.js';
import type { RetryDelayOptions } from './retry-delay.js';
import { attemptTimeouts, type TimeoutOptions } from './timeouts.js';
import { sleep as defaultSleep, type Sleep } from './sleep.js';

/** Options for {@link createFetchBackend}. */
export interface FetchBackendOptions {
  /**
   * Server root: `http://localhost:11434/v1` for the OpenAI API (Ollama, LM Studio
   * `:1234/v1`, llama.cpp `:8080/v1`, vLLM `:8000/v1`), `http://localhost:11434` for
   * Ollama's native API. A trailing slash is fine.
   */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>`. Default `'not-needed'` (local servers ignore it). */
  apiKey?: string;
  /**
   * Wire format. `'openai'` (default): `POST {baseURL}/chat/completions`, SSE.
   * `'ollama'`: `POST {baseURL}/api/chat`, NDJSON (a trailing `/v1` or `/api` on
   * `baseURL` is dropped, so the OpenAI-style URL works too).
   */
  api?: 'openai' | 'ollama';
  /** The `fetch` to use. Default `globalThis.fetch`, bound (an unbound `window.fetch` throws "Illegal invocation"). */
  fetch?: typeof globalThis.fetch;
  /**
   * How long to wait, in ms. A number limits both waits below; an object sets each. Reaching a
   * limit ends the request with `NETWORK_ERROR` and never sends it again.
   * - `firstByte`: for the response headers and the first body byte — the time a local server
   *   takes to load the model and read the prompt (minutes on a laptop). Default: no limit
   *   (stop it with the `signal`).
   * - `idle`: the longest silence between two pieces of the body once it has started. Default
   *   300 000 (5 minutes: some servers send a long tool call only once it is complete).
   * `0` or `Infinity` means no limit.
   */
  timeout?: number | TimeoutOptions;
  /**
   * How many times to send a request again.
   * Re-sends a request only when the server provably did not start it: an HTTP 408, 409, 429
   * or 5xx answer, after its `Retry-After` (not a 5xx whose message names a server setting to
   * fix, such as llama.cpp's `--jinja`: that fails the same way each time), or a connection
   * that never opened (refused, DNS, no route — Node reports these; a browser's bare "Failed to
   * fetch" does not, and is not retried). A request the server may have accepted — a timeout,
   * a connection dropped after it was sent — is never sent again. Default 2 (3 requests at most).
   */
  maxRetries?: number;
  /** Extra request headers (override the defaults). */
  headers?: Record<string, string>;
}

/**
 * Test and tuning seams that are not part of the public options.
 * @internal
 */
export interface FetchBackendInternals {
  /** Replaces the backoff wait (tests record the delays instead of waiting). */
  sleep?: Sleep;
  /** Backoff base, cap and jitter source. */
  retryDelay?: RetryDelayOptions;
  /** Replaces the page-origin probe behind the CORS hint (Node tests pretend to be a page). */
  pageOrigin?: () => string | undefined;
}

/**
 * A {@link ChatBackend} over `fetch`: POSTs the request to a local OpenAI-compatible
 * server (or Ollama's native API) and yields the streamed `chat.completion.chunk`
 * objects, JSON-parsed but not interpreted, then `STREAM_DONE` when the server ends the
 * stream on purpose. Runs unchanged in a page, a worker and Node 20+.
 *
 * The returned iterable starts the request when iterated. Breaking out of it cancels
 * the HTTP body.
 *
 * Throws `AgentError`: `HTTP_ERROR` (status ≥ 400, with the server's message),
 * `NETWORK_ERROR` (unreachable, a `timeout` reached; in a page with a CORS hint for local servers),
 * `STREAM_ERROR` (an error reported inside a 200 stream, after the chunks before it),
 * `INVALID_RESPONSE` (not a chat-completions stream), `EXECUTION_CANCELLED` (the signal).
 *
 * @example
 * const backend = createFetchBackend({ baseURL: 'http://localhost:11434/v1' });
 * const chunks = backend.chat.completions.create(
 *   { model: 'qwen3:4b', messages: [{ role: 'user', content: 'Hi' }], stream: true },
 *   { signal: controller.signal },
 * );
 * for await (const chunk of chunks) console.log(chunk);
 */
export function createFetchBackend(
  options: FetchBackendOptions,
  internals: FetchBackendInternals = {},
): ChatBackend {
  const api = options.api ?? 'openai';
  const root = options.baseURL.replace(/\/+$/, '');
  const url =
    api === 'ollama' ? `${root.replace(/\/(v1|api)$/, '')}/api/chat` : `${root}/chat/completions`;
  // Looked up per call and called as a method of globalThis: an unbound `window.fetch`
  // throws "Illegal invocation", and a polyfill installed later is still picked up.
  const fetch: typeof globalThis.fetch =
    options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeouts = attemptTimeouts(options.timeout);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: api === 'ollama' ? 'application/x-ndjson' : 'text/event-stream',
    authorization: `Bearer ${options.apiKey ?? 'not-needed'}`,
    ...lowerCaseKeys(options.headers ?? {}),
  };

  // llama.cpp, once a response showed it (its `timings`): later requests ask for its
  // prompt-processing progress. No other server is sent the field.
  let llamaCpp = false;
  const ollamaServer = api === 'ollama' || portOf(root) === '11434';

  /** One batch of chunks per body read (see `chunkStream`). */
  async function* batches(
    request: ChatRequest,
    signal: AbortSignal | undefined,
    onWaiting: ((report: WaitReport) => void) | undefined,
  ): AsyncGenerator<readonly unknown[]> {
    const ollama = api === 'ollama' ? await import('./ollama-api.js') : undefined;
    const asked =
      llamaCpp && onWaiting && !('return_progress' in request)
        ? { ...request, return_progress: true }
        : request;
    const body = ollama ? ollama.toOllamaRequest(asked) : asked;
    const waits = onWaiting
      ? new WaitReporter({
          report: onWaiting,
          root: root.replace(/\/(v1|api)$/, ''),
          model: request.model,
          fetch,
          ollama: ollamaServer,
        })
      : undefined;
    let watching = waits;
    const opened = await openResponse({
      url,
      init: { method: 'POST', headers, body: JSON.stringify(body) },
      fetch,
      timeouts,
      maxRetries: options.maxRetries ?? 2,
      sleep: internals.sleep ?? defaultSleep,
      retryDelay: internals.retryDelay,
      pageOrigin: internals.pageOrigin,
      signal,
    })
      .catch(async (error: unknown) => {
        // A 404 may be a model the server lacks: the fix lists those it has (loaded on a 404).
        throw (error as { status?: unknown }).status === 404 // AgentError or anything: a field read
          ? await (await import('./unknown-model.js')).withServerModels(error, url, request, fetch)
          : error;
      })
      .finally(() => waits?.started());
    const reader = ollama ? ollama.createOllamaBodyReader(url) : createOpenAIBodyReader(url);
    let failure: unknown;
    try {
      let text: string | undefined = opened.firstText;
      for (;;) {
        // A browser hands out megabytes per read: parsed and aggregated whole, its thousands
        // of chunks would outlive the young generation. Pieces of about BATCH_CHARS, cut at
        // line ends, keep them short-lived (and still hand out one batch per small read).
        let start = 0;
        do {
          // Hot path: per body read (pieceEnd only for a long one).
          const end =
            text === undefined
              ? 0
              : text.length - start <= BATCH_CHARS
                ? text.length
                : pieceEnd(text, start);
          const batch: unknown[] = [];
          try {
            if (text === undefined) reader.end(batch);
            else if (end > start)
              reader.push(
                start === 0 && end === text.length ? text : text.slice(start, end),
                batch,
              );
          } finally {
            // Also when the reader threw: the chunks before an error are handed out first
            // (the error then propagates once the consumer asks for more).
            if (batch.length > 0) {
              // Until the answer begins (a call per batch no longer).
              if (watching?.observe(batch) === false) watching = undefined;
              // Hot path: per chunk (a plain loop, no callback per chunk). Every chunk is a record
              // (STREAM_DONE too): the readers hand out nothing else.
              const chunks = batch as readonly Record<string, unknown>[];
              // The server's name for itself, kept for the context window's probe (identify-server.ts).
              backend.systemFingerprint ??= chunks[0]?.system_fingerprint;
              // llama.cpp's chunks carry `timings` (its last one) or `prompt_progress`; no other server's do.
              if (!llamaCpp)
                for (const { timings, prompt_progress } of chunks)
                  if (
                    (timings != null && isRecord(timings)) ||
                    (prompt_progress != null && isRecord(prompt_progress))
                  )
                    llamaCpp = true;
              yield batch;
            }
          }
          start = end;
          if (reader.finished) return;
        } while (text !== undefined && start < text.length);
        if (text === undefined) return;
        text = await opened.body.read();
      }
    } catch (error) {
      failure = error;
      throw await withSetupFix(
        opened.attempt.toAgentError(error, { url, attempts: opened.attempts, midStream: true }),
      );
    } finally {
      waits?.close();
      if (failure === undefined && reader.finished) opened.release();
      else opened.close(failure);
    }
  }

  // `systemFingerprint`: the first chunk's, for the context window's probe (identify-server.ts).
  const backend: ChatBackend & { systemFingerprint?: unknown } = {
    chat: {
      completions: {
        create: (request, requestOptions) =>
          chunkStream(batches(request, requestOptions?.signal, requestOptions?.onWaiting)),
      },
    },
  };
  return backend;
}

function portOf(url: string): string | undefined {
  try {
    return new URL(url).port;
  } catch {
    return undefined;
  }
}

/** Characters of a read parsed at once, see `batches`. */
const BATCH_CHARS = 32 * 1024;

/** Where the piece of the long `text` from `start` ends: after a line end near BATCH_CHARS. */
function pieceEnd(text: string, start: number): number {
  const lineEnd = text.indexOf('\n', start + BATCH_CHARS);
  return lineEnd === -1 ? text.length : lineEnd + 1;
}

/** Header names are case-insensitive; one spelling lets a caller's header replace ours. */
function lowerCaseKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key.toLowerCase(), value]),
  );
}
