import { AgentError } from '../index.js';

/** Where the connection failed, for the message. */
export interface ConnectFailure {
  url: URL;
  /** The error of the Streamable HTTP attempt. */
  error: unknown;
  /** The HTTP status the server answered with, when the transport reported one (-1: wrong content type). */
  status?: number | undefined;
  /** The error of the legacy HTTP+SSE attempt, when one was made. */
  legacyError?: unknown;
}

/**
 * An error a person can act on, for a server that could not be connected: unreachable or
 * blocked by CORS (`NETWORK_ERROR`), wanting credentials (`HTTP_ERROR` 401/403), or not an MCP
 * server (`HTTP_ERROR` with its status, or `INVALID_RESPONSE`). Always keeps the cause.
 */
export function connectError({ url, error, status, legacyError }: ConnectFailure): AgentError {
  if (isAgentErrorLike(error)) return error;
  const where = `the MCP server at ${url.href}`;
  const cause = legacyError === undefined ? error : new AggregateError([error, legacyError]);
  if (status === 401 || status === 403) {
    return new AgentError(
      'HTTP_ERROR',
      `${capitalise(where)} wants credentials (HTTP ${status}): pass them in \`headers\` (e.g. { Authorization: 'Bearer …' }). Signing in with OAuth is not supported.`,
      { status, cause, context: { url: url.href } },
    );
  }
  if (isNetworkFailure(error)) {
    return new AgentError('NETWORK_ERROR', unreachableMessage(url), {
      cause,
      context: { url: url.href },
    });
  }
  const detail = errorText(error);
  if (status !== undefined && status > 0) {
    return new AgentError(
      'HTTP_ERROR',
      `${capitalise(where)} answered HTTP ${status} to MCP's initialize request${legacyError === undefined ? '' : ' and to the legacy HTTP+SSE transport'}: check the URL (often it ends in /mcp); this does not look like an MCP server. ${detail}`,
      { status, cause, context: { url: url.href } },
    );
  }
  return new AgentError(
    'INVALID_RESPONSE',
    `${capitalise(where)} did not answer like an MCP server: ${detail}. Check the URL (often it ends in /mcp).`,
    { cause, context: { url: url.href } },
  );
}

/** Unreachable, or CORS: a page cannot tell them apart, so the message names both fixes. */
function unreachableMessage(url: URL): string {
  const origin = pageOrigin();
  const base = `Could not reach the MCP server at ${url.href}: check that it is running and the URL is right.`;
  if (origin === undefined || origin === url.origin) return base;
  return (
    `${base} If it is running, it may not allow requests from this page (${origin}) (CORS): ` +
    `the server must answer preflight requests with Access-Control-Allow-Origin: ${origin === 'null' ? '*' : origin}, ` +
    'allow the headers Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version and Last-Event-ID, ' +
    'allow the methods GET, POST and DELETE, and expose Mcp-Session-Id (Access-Control-Expose-Headers).'
  );
}

/** The page's or worker's origin, or undefined in Node (no CORS there). */
function pageOrigin(): string | undefined {
  const scope = globalThis as { document?: unknown; location?: { origin?: unknown } };
  const inBrowser =
    scope.document !== undefined ||
    typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'function';
  if (!inBrowser) return undefined;
  return typeof scope.location?.origin === 'string' ? scope.location.origin : 'null';
}

/** `fetch` rejects with a TypeError when the server is down, the name unknown or CORS blocks. */
function isNetworkFailure(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  const text = errorText(error);
  return /Failed to fetch|fetch failed|ECONNREFUSED|NetworkError|Load failed/i.test(text);
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

function isAgentErrorLike(error: unknown): error is AgentError {
  return error instanceof AgentError;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
