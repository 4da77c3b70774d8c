import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { AgentError } from '../index.js';
import { connectError } from './mcp-connect-error.js';
import type { McpToolDescription } from './mcp-tools.js';
import type { McpCallToolResult } from './mcp-tool-result.js';

/** How to reach the server. */
export interface McpSessionOptions {
  url: URL;
  headers?: Record<string, string> | undefined;
  fetch?: typeof fetch | undefined;
  signal?: AbortSignal | undefined;
  /** Called as the server's `notifications/tools/list_changed` arrives (before any refetch). */
  onToolListChanged: () => void;
}

/** One initialised session with a server, on the SDK's client. */
export interface McpSession {
  kind: 'streamable-http' | 'sse';
  server: { name: string; version: string };
  listTools(signal: AbortSignal | undefined): Promise<McpToolDescription[]>;
  callTool(
    name: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<McpCallToolResult>;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'open-agent', version: '0.1.0' };

/**
 * Opens a session over Streamable HTTP, or over the legacy HTTP+SSE transport when the server
 * refuses the initialize request with a 4xx (the spec's backwards-compatibility rule).
 * @throws AgentError from {@link connectError}.
 */
export async function openMcpSession(options: McpSessionOptions): Promise<McpSession> {
  const { url, signal } = options;
  const transportOptions = {
    requestInit: options.headers ? { headers: options.headers } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  const connectOptions = signal ? { signal } : {};
  const streamable = new StreamableHTTPClientTransport(url, transportOptions);
  const client = newClient(options);
  try {
    await client.connect(streamable, connectOptions);
    return createSession(client, streamable, options);
  } catch (error) {
    await client.close().catch(() => undefined);
    const status = error instanceof StreamableHTTPError ? error.code : undefined;
    if (signal?.aborted || !refusedInitialize(status)) throw connectError({ url, error, status });
    // A server on the 2024-11-05 transport answers the POST with a 4xx; it wants a GET that
    // opens an SSE stream announcing where to POST. Loaded only for such servers.
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
    const legacyClient = newClient(options);
    try {
      const sse = new SSEClientTransport(url, transportOptions);
      await legacyClient.connect(sse, connectOptions);
      return createSession(legacyClient, sse, options);
    } catch (legacyError) {
      await legacyClient.close().catch(() => undefined);
      throw connectError({ url, error, status, legacyError });
    }
  }
}

/**
 * A 4xx answer to the initialize POST other than 401/403 (which want credentials instead).
 * The status comes from the SDK's error class by `instanceof`: its name is plain "Error", and
 * a minifier renames the class.
 */
function refusedInitialize(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

function newClient(options: McpSessionOptions): McpClient {
  return new McpClient(CLIENT_INFO, {
    capabilities: {},
    // The SDK checks structured tool output against the tool's outputSchema: with
    // @cfworker/json-schema (the runtime's own validator; no code generation, so it works
    // under a CSP without 'unsafe-eval') rather than its default, ajv.
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    // Told at once, without the SDK's refetch (300 ms later by default): the connection
    // refetches itself, so a tool call that caused the change can wait for the new list.
    listChanged: {
      tools: { autoRefresh: false, debounceMs: 0, onChanged: () => options.onToolListChanged() },
    },
  });
}

function createSession(
  client: McpClient,
  transport: Transport,
  options: McpSessionOptions,
): McpSession {
  const { url } = options;
  const reported = client.getServerVersion();
  const inFlight = new Set<AbortController>();
  const failInFlight = (error: AgentError) => {
    for (const controller of inFlight) controller.abort(error);
  };
  // The SDK resumes a dropped response stream when it can; once the server cannot be reached
  // again (or the transport closed), calls waiting on it would hang until the request
  // timeout: fail them now, with the cause.
  client.onerror = (error) => {
    if (/Failed to reconnect|Maximum reconnection attempts/.test(error.message)) {
      failInFlight(lostConnection(url, error));
    }
  };
  client.onclose = () => failInFlight(lostConnection(url, new Error('the connection closed')));
  return {
    kind: transport instanceof StreamableHTTPClientTransport ? 'streamable-http' : 'sse',
    server: { name: reported?.name ?? 'mcp', version: reported?.version ?? '' },
    listTools: async (signal) => {
      const tools: McpToolDescription[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(
          cursor === undefined ? {} : { cursor },
          signal ? { signal } : {},
        );
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return tools;
    },
    callTool: async (name, input, signal) => {
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      inFlight.add(controller);
      try {
        // Aborting the request's signal makes the SDK send notifications/cancelled.
        return (await client.callTool({ name, arguments: input }, undefined, {
          signal: controller.signal,
          resetTimeoutOnProgress: true,
        })) as McpCallToolResult; // parsed by the SDK with CallToolResultSchema
      } catch (error) {
        // The SDK wraps an abort reason in an McpError: a lost connection reports itself.
        const reason: unknown = controller.signal.reason;
        throw reason instanceof AgentError ? reason : error;
      } finally {
        inFlight.delete(controller);
        signal.removeEventListener('abort', onAbort);
      }
    },
    close: async () => {
      client.onclose = () => undefined; // closing on purpose fails no call
      if (transport instanceof StreamableHTTPClientTransport) {
        await transport.terminateSession().catch(() => undefined);
      }
      await client.close();
    },
  };
}

function lostConnection(url: URL, cause: Error): AgentError {
  return new AgentError(
    'TOOL_FAILED',
    `The connection to the MCP server at ${url.href} was lost: ${cause.message}`,
    { cause, context: { url: url.href } },
  );
}
