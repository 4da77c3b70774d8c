import { AgentError, errorMessage, isAbortError } from '../errors/agent-error.js';
import { isRecord } from './model-fields.js';

/** Options of one request to a model server's management API. */
export interface ServerRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Gives up after this many milliseconds (detection probes); default: no limit. */
  timeoutMs?: number;
}

/** What {@link ServerHttp.probe} found: the status and the JSON body (undefined when not JSON). */
export interface ProbeAnswer {
  status: number;
  json: unknown;
}

/**
 * Requests to one server's root (`http://localhost:11434`, no `/v1`): JSON in, JSON out,
 * errors as `AgentError`s that carry the server's own message. The management APIs are plain
 * request/response JSON (pull progress is read by the callers from `open()`'s body).
 */
export class ServerHttp {
  readonly root: string;
  readonly #fetch: typeof globalThis.fetch;

  constructor(root: string, fetch: typeof globalThis.fetch | undefined) {
    this.root = root;
    // Called as a method of globalThis: an unbound `window.fetch` throws "Illegal invocation".
    this.#fetch = fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /**
   * A request that may fail quietly (detection): `undefined` when nothing answered or it
   * timed out; rethrows only a cancellation.
   */
  async probe(path: string, request: ServerRequest = {}): Promise<ProbeAnswer | undefined> {
    try {
      const response = await this.#send(path, request);
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, json };
    } catch {
      if (request.signal?.aborted === true) throw cancelled(request.signal);
      return undefined;
    }
  }

  /**
   * A request whose failure is the caller's: resolves with the JSON body (or `undefined` for
   * an empty one).
   * @throws AgentError `HTTP_ERROR` (with the server's message), `NETWORK_ERROR`, `EXECUTION_CANCELLED`.
   */
  async json(path: string, request: ServerRequest = {}): Promise<unknown> {
    const response = await this.open(path, request);
    const text = await response.text();
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new AgentError(
        'INVALID_RESPONSE',
        `${this.root}${path} answered with something that is not JSON: ${text.slice(0, 120)}`,
        { cause: error },
      );
    }
  }

  /**
   * The response of a request that succeeded (2xx), body unread (pull progress streams).
   * @throws AgentError like {@link json}.
   */
  async open(path: string, request: ServerRequest = {}): Promise<Response> {
    let response: Response;
    try {
      response = await this.#send(path, request);
    } catch (error) {
      if (request.signal?.aborted === true || isAbortError(error))
        throw cancelled(request.signal, error);
      throw new AgentError(
        'NETWORK_ERROR',
        `Nothing answered at ${this.root} (${errorMessage(error)}): is the server running?`,
        { cause: error },
      );
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      let said: string | undefined;
      try {
        said = errorText(JSON.parse(text));
      } catch {
        said = text.trim().slice(0, 200) || undefined;
      }
      throw new AgentError(
        'HTTP_ERROR',
        `${request.method ?? 'GET'} ${path} failed with HTTP ${response.status}${said ? `: ${said}` : ''}`,
        {
          status: response.status,
        },
      );
    }
    return response;
  }

  #send(path: string, request: ServerRequest): Promise<Response> {
    const signals = [
      request.signal,
      request.timeoutMs === undefined ? undefined : AbortSignal.timeout(request.timeoutMs),
    ].filter((signal): signal is AbortSignal => signal !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    return this.#fetch(`${this.root}${path}`, {
      method: request.method ?? (request.body === undefined ? 'GET' : 'POST'),
      headers:
        request.body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      ...(signal ? { signal } : {}),
    });
  }
}

/** The error of a cancelled request. */
export function cancelled(signal: AbortSignal | undefined, cause?: unknown): AgentError {
  return new AgentError('EXECUTION_CANCELLED', 'Cancelled', { cause: signal?.reason ?? cause });
}

/**
 * The message of an error body: `{"error": "…"}` (Ollama), `{"error": {"message": "…"}}`
 * (OpenAI, LM Studio, llama.cpp), `{"detail": "…"}` / `{"message": "…"}` (vLLM, FastAPI).
 * The transport's reader knows more dialects; these are the management APIs'.
 */
function errorText(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const { error, detail, message } = body;
  if (typeof error === 'string') return error;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  if (typeof detail === 'string') return detail;
  return typeof message === 'string' ? message : undefined;
}
