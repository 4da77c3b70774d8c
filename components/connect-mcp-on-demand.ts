import type { ConnectMcpOptions, McpConnection } from '../src/mcp/index.js';

/**
 * `connectMcp` for the no-build file (`dist/agent-chat.js`): the same function as
 * `open-agent/mcp`'s, loaded from a chunk beside the file on the first call, so a page that
 * never connects downloads none of it (the MCP client and the SDK stay out of its first load).
 *
 * @example
 * import { connectMcp } from './agent-chat.js';
 * const mcp = await connectMcp({ url: 'http://127.0.0.1:3001/mcp' });
 * document.querySelector('agent-chat').tools = mcp.tools;
 */
export async function connectMcp(options: ConnectMcpOptions): Promise<McpConnection> {
  const mcp = await import('../src/mcp/index.js');
  return mcp.connectMcp(options);
}
