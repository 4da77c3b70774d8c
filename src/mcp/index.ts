/**
 * open-agent/mcp: tools from Model Context Protocol servers, straight from the page. Imports
 * `open-agent` and the MCP SDK; nothing in `open-agent` or `open-agent/components` imports it.
 * @packageDocumentation
 */
export { connectMcp } from './connect-mcp.js';
export type { ConnectMcpOptions, McpConnection } from './connect-mcp.js';
export { defaultNeedsApproval } from './mcp-tools.js';
export type { McpToolDescription, McpToolInfo, McpTrust } from './mcp-tools.js';
export type { McpCallToolResult, McpResultPart } from './mcp-tool-result.js';
