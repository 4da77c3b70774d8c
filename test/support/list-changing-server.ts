import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { startHttpServer, type RunningServer } from './mcp-servers.js';

/**
 * A one-session MCP server (the SDK's own server side) whose `add_tool` tool registers a new
 * tool, `added`, so the server announces `notifications/tools/list_changed` — on the session's
 * standalone stream (the SDK's `registerTool` does), and with `onRequestStream` also on the
 * call's own response stream before the result (the spec's "SHOULD relate to the originating
 * request"). server-everything has no tool that changes its list after the session started:
 * its conditional tools register while the session initialises, before the first tools/list.
 */
export async function startListChangingServer({
  onRequestStream = false,
} = {}): Promise<RunningServer> {
  const server = new McpServer(
    { name: 'list-changing', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.registerTool('add_tool', { description: 'Adds the tool "added"' }, async (extra) => {
    server.registerTool('added', { description: 'Appeared after list_changed' }, () => ({
      content: [{ type: 'text', text: 'added ran' }],
    }));
    if (onRequestStream)
      await extra.sendNotification({ method: 'notifications/tools/list_changed' });
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  const http = await startHttpServer(
    (request, response) => void transport.handleRequest(request, response),
  );
  return {
    url: http.url,
    stop: async () => {
      await server.close();
      await http.stop();
    },
  };
}
