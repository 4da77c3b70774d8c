import type { IncomingHttpHeaders } from 'node:http';

/** One scripted answer to a `POST /v1/chat/completions`. */
export interface FakeTurn {
  /** Exact chunk objects (each sent as `data: JSON`; strings are sent verbatim). Replaces text/toolCalls/finishReason/usage. */
  chunks?: unknown[];
  /** Assistant text: a string is streamed as word deltas, an array delta by delta. */
  text?: string | string[];
  /** Reasoning, streamed as `reasoning_content` deltas before the text. */
  reasoning?: string | string[];
  /** Tool calls, each streamed as a header delta (id, name) and argument pieces. `input` = `arguments`. */
  toolCalls?: {
    name: string;
    arguments?: Record<string, unknown> | string;
    input?: Record<string, unknown>;
    id?: string;
  }[];
  /** Default `tool_calls` when there are tool calls, else `stop`; `null` sends no finish chunk. */
  finishReason?: string | null;
  /** Usage (OpenAI wire form or camelCase), sent in a final `choices: []` chunk when given. */
  usage?:
    | { prompt_tokens: number; completion_tokens: number; total_tokens: number }
    | { promptTokens: number; completionTokens: number };
  /** `false`: no `data: [DONE]` at the end. */
  done?: boolean;
  /** HTTP status; ≥ 400 answers `errorBody` (default an OpenAI error JSON) instead of a stream. */
  status?: number;
  /** The raw error body for `status` ≥ 400 (JSON, text or HTML; content type guessed). */
  errorBody?: string;
  /** Exact body text sent as `text/event-stream` (for malformed-stream tests). */
  raw?: string;
  /** A whole `application/json` body (a server that ignores `stream: true`). */
  json?: unknown;
  /** Milliseconds to wait before each frame. */
  delayMs?: number;
  /** Keep the connection open after the last frame (abort / timeout tests). */
  hang?: boolean;
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
}

/** Answers a request when the queue is empty. */
export type FakeResponder = (
  request: unknown,
  context: { headers: IncomingHttpHeaders },
) => FakeTurn | undefined | Promise<FakeTurn | undefined>;

export interface FakeServerOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Ids served by `GET /v1/models`. Default `['fake-model']`. */
  models?: string[];
  /** Used when the queue is empty. */
  responder?: FakeResponder;
  /** Behave like a real local server: load time, prompt and generation rates, one slot (see latency-profile.mjs). */
  latency?: LatencyProfile;
}

/** See test/support/latency-profile.mjs. Every duration is multiplied by `timeScale`. */
export interface LatencyProfile {
  loadMs?: number;
  promptTokensPerSecond?: number;
  generationTokensPerSecond?: number;
  headers?: 'at-once' | 'with-first-token';
  timeScale?: number;
  /** Stream llama.cpp `prompt_progress` chunks when the request sends `return_progress: true`. */
  progress?: boolean;
}

/** What the server saw of one request under a latency profile. */
export interface LatencyRecord {
  receivedAt: number;
  /** Milliseconds from receipt to the first token, as the server saw it. */
  firstTokenMs: number | undefined;
  /** The client went away before the first token: the work was dropped. */
  cancelled: boolean;
}

export interface FakeOpenAIServer {
  /** `http://127.0.0.1:PORT/v1`: the `baseURL` to use. */
  readonly url: string;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  readonly port: number;
  /** Every chat-completions request body, parsed, in order. */
  readonly requests: unknown[];
  /** The headers of each request in `requests`. */
  readonly requestHeaders: IncomingHttpHeaders[];
  /** Unscripted requests and server faults. A passing test expects none. */
  readonly errors: string[];
  /** Under a latency profile: each chat request's timing, in order. */
  readonly latency: LatencyRecord[];
  /** Under a latency profile: the next request loads the model again. */
  unloadModel(): void;
  /** Streams the client closed before they ended (a `break`, an abort). */
  readonly disconnects: number;
  /** Turns still queued. */
  readonly pending: number;
  /** Queues turns, answered FIFO, one per request. */
  enqueue(...turns: FakeTurn[]): void;
  /** Sets the responder used when the queue is empty. */
  onRequest(responder: FakeResponder | undefined): void;
  setModels(models: string[]): void;
  /** Clears the queue, the recorded requests and errors. */
  reset(): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Starts a scripted OpenAI-compatible server (SSE chat completions, `/v1/models`,
 * `/health`, CORS for browser tests).
 *
 * @example
 * const server = await startFakeOpenAIServer();
 * server.enqueue({ text: 'Hello there', usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
 * // … point the agent at server.url …
 * await server.close();
 */
export function startFakeOpenAIServer(options?: FakeServerOptions): Promise<FakeOpenAIServer>;

/** The SSE frames a turn produces (exported for benchmarks that want the bytes). */
export function sseFrames(turn: FakeTurn, request?: unknown, sequence?: number): string[];

/** Answers "You said: <last user message>". */
export const echoResponder: FakeResponder;
