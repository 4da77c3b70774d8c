/** Largest response body handed to the sandboxed code. */
const MAX_BODY_CHARS = 1_000_000;

/** One request the sandboxed code asked for, as the prelude passes it. */
export interface SandboxFetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** What the code gets back: JSON-safe, read in full (up to {@link MAX_BODY_CHARS}). */
export interface SandboxFetchResponse {
  url: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The `fetch` capability an app grants with `javascriptTool({ fetchOrigins })`, run by the
 * worker on the code's behalf: only URLs whose origin is listed, no redirects (a listed
 * origin cannot bounce the request elsewhere), no cookies or HTTP auth (`credentials:
 * 'omit'`), no referrer, text bodies of at most 1 MB. Rejects with a TypeError, as `fetch`
 * does, for anything else.
 */
export async function sandboxFetch(
  request: SandboxFetchRequest,
  origins: readonly string[],
  signal: AbortSignal,
): Promise<SandboxFetchResponse> {
  let target: URL;
  try {
    target = new URL(request.url);
  } catch {
    throw new TypeError(`fetch: "${request.url}" is not an absolute URL`);
  }
  if (!origins.includes(target.origin)) {
    throw new TypeError(
      `fetch: ${target.origin} is not an allowed origin (allowed: ${origins.join(', ')})`,
    );
  }
  let response: Response;
  try {
    response = await fetch(target, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: 'error',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    throw new TypeError(
      `fetch: ${target.href} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const body = await readText(response, signal);
  return {
    url: response.url,
    status: response.status,
    statusText: response.statusText,
    headers: Object.fromEntries(response.headers),
    body,
  };
}

async function readText(response: Response, signal: AbortSignal): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      if (signal.aborted) throw new TypeError('fetch: the run ended');
      const { done, value } = await reader.read();
      if (done) return text;
      text += value;
      if (text.length > MAX_BODY_CHARS) {
        throw new TypeError(`fetch: the response is larger than ${MAX_BODY_CHARS} characters`);
      }
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}
