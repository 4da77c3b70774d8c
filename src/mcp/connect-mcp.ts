import { AgentError, type Tool } from '../index.js';
import type { McpSession } from './mcp-session.js';
import {
  toOpenAgentTools,
  type McpTrust,
  type CallMcpTool,
  type McpToolDescription,
  type McpToolInfo,
} from './mcp-tools.js';

/** Options of {@link connectMcp}. */
export interface ConnectMcpOptions {
  /** The server's endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string | URL;
  /** Sent with every request, e.g. `{ Authorization: 'Bearer …' }`. */
  headers?: Record<string, string>;
  /** A `fetch` to use instead of the global one (tests, proxies, credentials). */
  fetch?: typeof fetch;
  /** Aborts connecting; once connected, aborting closes the connection. */
  signal?: AbortSignal;
  /**
   * Put before a tool name that collides (`prefix_name`): with `reservedNames`, or with
   * another of the server's names once made valid. Default: the server's name.
   */
  prefix?: string;
  /** Names already taken by the page's other tools: colliding MCP tools get the prefix. */
  reservedNames?: readonly string[];
  /**
   * Whether a call waits for the user's approval, by the tool's name on the server; over
   * `trust`. Default: every call asks.
   */
  approvals?: Record<string, boolean>;
  /**
   * What the app trusts on this server: `{ tools: ['search'] }` (or `'all'`) run without asking;
   * `{ annotations: true }` lets the server's `readOnlyHint` / `destructiveHint` decide. Default:
   * nothing — annotations are shown (`toolInfo`) but never trusted, as the MCP spec asks of
   * clients facing servers they do not control.
   *
   * @example
   * const mcp = await connectMcp({ url, trust: { tools: ['search_docs'] } });
   */
  trust?: McpTrust;
  /** Called after the server's tool list changed and `tools` was refreshed. */
  onToolsChanged?: (connection: McpConnection) => void;
}

/** A connected MCP server and its tools as open-agent tools. */
export interface McpConnection {
  /**
   * The server's tools, for `AgentOptions.tools` or `<agent-chat>`'s `tools`. A new array once
   * the server's list changed: give `() => mcp.tools` to have every model call offer the
   * current list. A call whose result comes after the server announced a change on the call's
   * stream returns once the new list is here, so the run's next model call offers it.
   *
   * @example
   * const client = new Client({ baseURL, model, tools: () => [calculator, ...mcp.tools] });
   */
  readonly tools: Tool[];
  /** What to show about each tool: its name on the server, title and approval default. */
  readonly toolInfo: readonly McpToolInfo[];
  /** The server's name and version, as it reports them. */
  readonly server: { name: string; version: string };
  /** `'streamable-http'`, or `'sse'` for a server on the legacy HTTP+SSE transport. */
  readonly transport: 'streamable-http' | 'sse';
  /** Ends the session (on the server too, where it keeps one). */
  close(): Promise<void>;
}

/**
 * Connects to an MCP server over Streamable HTTP — falling back to the legacy HTTP+SSE
 * transport when the server refuses the initialize request with a 4xx — and lists its tools
 * as open-agent tools. A call runs `tools/call` on the server; aborting the run sends an MCP
 * cancellation. Runs in a page (the server must allow the page's origin: CORS), a worker or
 * Node. The MCP SDK loads with the first call (`import()`), not with this module.
 *
 * @throws AgentError `NETWORK_ERROR` (unreachable, or blocked by CORS), `HTTP_ERROR` (401/403:
 *   the server wants credentials; another status: not an MCP server), `INVALID_RESPONSE` (the
 *   server does not speak MCP), `EXECUTION_CANCELLED` (aborted).
 * @example
 * const mcp = await connectMcp({ url: 'http://127.0.0.1:3001/mcp' });
 * const client = new Client({ baseURL, model, tools: () => mcp.tools, autoExecuteTools: true });
 * // …
 * await mcp.close();
 */
export async function connectMcp(options: ConnectMcpOptions): Promise<McpConnection> {
  const url = new URL(options.url);
  const { signal } = options;
  signal?.throwIfAborted();
  const changes: { announced?: () => void } = {};
  let session: McpSession;
  let descriptions: McpToolDescription[];
  try {
    const { openMcpSession } = await import('./mcp-session.js');
    session = await openMcpSession({
      url,
      headers: options.headers,
      fetch: options.fetch,
      signal,
      onToolListChanged: () => changes.announced?.(),
    });
    descriptions = await session.listTools(signal);
  } catch (error) {
    if (signal?.aborted) {
      throw new AgentError(
        'EXECUTION_CANCELLED',
        `Connecting to the MCP server at ${url.href} was cancelled`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  const { server } = session;
  const prefix =
    options.prefix ?? (server.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 20) || 'mcp');
  const refresh = toolListRefresh(session, (list) => {
    mapped = map(list);
    // A schema the validator cannot read is reported by the model call that offers the tool.
    prepare(mapped.tools).catch(() => undefined);
    options.onToolsChanged?.(connection);
  });
  // A call whose tool changed the server's list (the announcement arrives before its result)
  // returns once `tools` is the new list: the run's next model call offers it.
  const call: CallMcpTool = async (name, input, toolSignal) => {
    const result = await session.callTool(name, input, toolSignal);
    await refresh.settled();
    return result;
  };
  const map = (list: readonly McpToolDescription[]) =>
    toOpenAgentTools(list, call, {
      prefix,
      reservedNames: options.reservedNames ?? [],
      approvals: options.approvals ?? {},
      trust: options.trust,
    });
  let mapped = map(descriptions);
  // Each tool's `validate` works from the start, for callers that check an input themselves.
  try {
    await prepare(mapped.tools);
  } catch (error) {
    await session.close();
    throw error;
  }
  let closed = false;
  const connection: McpConnection = {
    get tools() {
      return mapped.tools;
    },
    get toolInfo() {
      return mapped.info;
    },
    server,
    transport: session.kind,
    close: async () => {
      if (closed) return;
      closed = true;
      signal?.removeEventListener('abort', onAbort);
      delete changes.announced;
      await session.close();
    },
  };
  changes.announced = () => refresh.start();
  const onAbort = () => void connection.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  return connection;
}

/**
 * Refetches the server's tool list after each announcement — one fetch at a time, and one
 * more when another announcement came during it. A failed fetch keeps the list as it was.
 */
function toolListRefresh(
  session: McpSession,
  apply: (tools: McpToolDescription[]) => void,
): { start(): void; settled(): Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  return {
    start: () => {
      again = true;
      running ??= (async () => {
        while (again) {
          again = false;
          try {
            apply(await session.listTools(undefined));
          } catch {
            // The server answered the notification but not the list: keep the tools we know.
          }
        }
      })().finally(() => (running = undefined));
    },
    settled: () => running ?? Promise.resolve(),
  };
}

/** Loads what the tools' `validate` needs (the JSON Schema validator) and reads their schemas. */
async function prepare(tools: readonly Tool[]): Promise<void> {
  await Promise.all(tools.map(async (tool) => tool.prepare?.()));
}
