// An app that connects an MCP server and hands its tools to a Client (`open-agent/mcp`). Like an
// app's main.ts it exports nothing; it connects when the page asks (a click in an app).
import { Client } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/index.js';

Object.assign(globalThis, {
  openAgent: {
    async connect(url: string) {
      const mcp = await connectMcp({ url });
      return new Client({
        model: 'm',
        baseURL: 'http://127.0.0.1:1/v1',
        tools: mcp.tools,
        autoExecuteTools: true,
      });
    },
  },
});
