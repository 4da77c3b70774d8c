/**
 * Test fakes for the fetch transport: a scripted `fetch` that records every request and
 * fails loudly when called unscripted, and `Response` builders whose bodies emit bytes
 * split at awkward places (mid-line, mid-UTF-8 character, mid-CRLF).
 *
 * @example
 * const fake = fakeFetch([sseResponse('data: {"choices":[]}\n\ndata: [DONE]\n\n', { splitEvery: 3 })]);
 * const backend = createFetchBackend({ baseURL: 'http://localhost:1234/v1', fetch: fake.fetch });
 * // … iterate backend.chat.completions.create(request) …
 * expect(fake.requests[0]?.body).toMatchObject({ model: 'm' });
 */

/** One request the fake received. `body` is parsed JSON when it was JSON, else the raw string. */
export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  init: RequestInit | undefined;
  signal: AbortSignal | undefined;
}

/** A scripted answer: a ready `Response` (single use), a factory, or an error to reject with. */
export type FakeFetchStep =
  Response | ((request: RecordedRequest) => Response | Promise<Response>) | Error;

/** What {@link fakeFetch} returns. */
export interface FakeFetch {
  fetch: typeof globalThis.fetch;
  /** Every request received, in order (also the unscripted ones). */
  requests: RecordedRequest[];
  /** Requests that arrived after the script ran out. A passing test should see none. */
  unscripted: RecordedRequest[];
  /** Steps not consumed yet. */
  remaining(): number;
}

/**
 * A `fetch` that replays `steps` in order, one per call. An unscripted call is recorded in
 * `unscripted` and rejects with an error saying so.
 */
export function fakeFetch(steps: FakeFetchStep[]): FakeFetch {
  const queue = [...steps];
  const requests: RecordedRequest[] = [];
  const unscripted: RecordedRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = await recordRequest(input, init);
    requests.push(request);
    if (queue.length === 0) {
      unscripted.push(request);
      throw new Error(
        `fakeFetch: unscripted request #${requests.length} ${request.method} ${request.url}`,
      );
    }
    const step = queue.shift();
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step(request);
    if (step === undefined) throw new Error('fakeFetch: empty step');
    return step;
  };
  return { fetch, requests, unscripted, remaining: () => queue.length };
}

async function recordRequest(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
): Promise<RecordedRequest> {
  const url = input instanceof Request ? input.url : String(input);
  const headers: Record<string, string> = {};
  new Headers(input instanceof Request ? input.headers : init?.headers).forEach((value, key) => {
    headers[key] = value;
  });
  let raw: string | undefined;
  if (typeof init?.body === 'string') raw = init.body;
  else if (input instanceof Request) raw = await input.clone().text();
  let body: unknown = raw;
  if (raw !== undefined) {
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
  }
  return {
    url,
    method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
    headers,
    body,
    init,
    signal: init?.signal ?? undefined,
  };
}

/** Options for the body-stream builders. */
export interface BytesOptions {
  /** A chunk size in bytes, or the byte offsets at which to cut. Default: one chunk. */
  splitEvery?: number | number[];
  /** Keep the stream open after the last part (for timeout / abort tests). */
  hang?: boolean;
  /** Called when the consumer cancels the body (a `break`, an abort). */
  onCancel?: (reason: unknown) => void;
  /** Error the stream after the last part (a connection reset mid-body). */
  errorAfter?: Error;
}

/** Cuts `bytes` at the given offsets (or every N bytes). */
export function splitBytes(
  bytes: Uint8Array,
  splitEvery: number | number[] | undefined,
): Uint8Array[] {
  if (splitEvery === undefined) return [bytes];
  const offsets: number[] = [];
  if (typeof splitEvery === 'number') {
    if (splitEvery <= 0) throw new Error('splitEvery must be positive');
    for (let offset = splitEvery; offset < bytes.length; offset += splitEvery) offsets.push(offset);
  } else {
    offsets.push(
      ...[...splitEvery]
        .sort((a, b) => a - b)
        .filter((offset) => offset > 0 && offset < bytes.length),
    );
  }
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const offset of [...offsets, bytes.length]) {
    if (offset > start) parts.push(bytes.slice(start, offset));
    start = offset;
  }
  return parts;
}

/** A `ReadableStream` that emits `parts` one per pull, then closes (or hangs, or errors). */
export function bytesStream(
  parts: Uint8Array[],
  options: BytesOptions = {},
): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const part = parts[index++];
        if (part !== undefined) {
          controller.enqueue(part);
          return;
        }
        if (options.errorAfter) controller.error(options.errorAfter);
        else if (!options.hang) controller.close();
        // hang: never enqueue or close again
        return options.hang ? new Promise<void>(() => undefined) : undefined;
      },
      cancel(reason) {
        options.onCancel?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Options for {@link sseResponse} and friends. */
export interface FakeResponseOptions extends BytesOptions {
  status?: number;
  headers?: Record<string, string>;
}

/**
 * A `Response` whose body emits the UTF-8 bytes of `body`, cut at `splitEvery`. Default
 * content type `text/event-stream`.
 */
export function sseResponse(body: string, options: FakeResponseOptions = {}): Response {
  return bytesResponse(body, {
    ...options,
    headers: { 'content-type': 'text/event-stream', ...options.headers },
  });
}

/** A `Response` with a streamed body of the given text or bytes (no default content type). */
export function bytesResponse(
  body: string | Uint8Array,
  options: FakeResponseOptions = {},
): Response {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return new Response(bytesStream(splitBytes(bytes, options.splitEvery), options), {
    status: options.status ?? 200,
    headers: options.headers ?? {},
  });
}

/** SSE text for the given chunks: `data: JSON\n\n` each, then `data: [DONE]\n\n` unless `done: false`. */
export function sseBody(
  chunks: unknown[],
  options: { done?: boolean; newline?: '\n' | '\r\n' } = {},
): string {
  const newline = options.newline ?? '\n';
  const frames = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}${newline}${newline}`);
  if (options.done !== false) frames.push(`data: [DONE]${newline}${newline}`);
  return frames.join('');
}

/** A JSON `Response` (`application/json`), streamed like the others. */
export function jsonResponse(value: unknown, options: FakeResponseOptions = {}): Response {
  return bytesResponse(JSON.stringify(value), {
    ...options,
    headers: { 'content-type': 'application/json', ...options.headers },
  });
}

/** An NDJSON `Response` (Ollama `/api/chat`): one JSON value per line. */
export function ndjsonResponse(lines: unknown[], options: FakeResponseOptions = {}): Response {
  return bytesResponse(lines.map((line) => `${JSON.stringify(line)}\n`).join(''), {
    ...options,
    headers: { 'content-type': 'application/x-ndjson', ...options.headers },
  });
}
