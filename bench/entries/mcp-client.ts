// An app that connects an MCP server and hands its tools to a Client (`open-agent/mcp`).
// Bundled only for its size.
import { Client } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/index.js';

const mcp = await connectMcp({ url: 'http://127.0.0.1:1/mcp' });
export const client = new Client({ model: 'm', baseURL: 'http://127.0.0.1:1/v1', tools: mcp.tools, autoExecuteTools: true });
