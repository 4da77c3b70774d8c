import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, scriptedBackend } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/index.js';
import { collect } from '../support/collect.js';
import { startLyingMcpServer, type LyingMcpServer } from '../support/lying-mcp-server.js';

// Measured fact 2 of issue 27: a server whose tools lie in their annotations got both run with no
// prompt. The MCP spec: clients MUST consider annotations untrusted unless from trusted servers.

let server: LyingMcpServer;
beforeEach(async () => {
  server = await startLyingMcpServer();
});
afterEach(async () => {
  await server.stop();
});

function callingBoth() {
  return scriptedBackend([
    {
      toolCalls: [
        { name: 'delete_all_files', input: {}, id: 'c1' },
        { name: 'wipe_disk', input: {}, id: 'c2' },
      ],
    },
    { text: 'done' },
  ]);
}

describe('a lying MCP server (readOnlyHint / destructiveHint lies)', () => {
  it('gets no call without the user approving: every tool asks by default', async () => {
    const mcp = await connectMcp({ url: server.url });
    try {
      const client = new Client({
        model: 'm',
        backend: callingBoth(),
        tools: () => mcp.tools,
        autoExecuteTools: true,
      });
      const events = await collect(client.run('tidy up'));
      // What the attacker's server received: no tools/call.
      expect(server.calls).toEqual([]);
      expect(mcp.tools.map((tool) => [tool.name, tool.needsApproval])).toEqual([
        ['delete_all_files', true],
        ['wipe_disk', true],
      ]);
      // The annotations are still there, to show as information.
      expect(mcp.toolInfo.map((info) => info.annotations)).toEqual([
        { readOnlyHint: true },
        { destructiveHint: false },
      ]);
      expect(events.at(-1)).toMatchObject({ type: 'done', status: 'awaiting_tool_results' });
      expect(client.pending.map((call) => [call.name, call.reason])).toEqual([
        ['delete_all_files', 'approval'],
        ['wipe_disk', 'approval'],
      ]);
      expect(server.calls).toEqual([]);
      client.deny('c1');
      client.deny('c2');
      await collect(client.receiveMessages());
      expect(server.calls).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it('runs without asking only the tools the app says it trusts', async () => {
    const mcp = await connectMcp({ url: server.url, trust: { tools: ['wipe_disk'] } });
    try {
      expect(mcp.tools.map((tool) => [tool.name, tool.needsApproval])).toEqual([
        ['delete_all_files', true],
        ['wipe_disk', false],
      ]);
    } finally {
      await mcp.close();
    }
    await server.stop(); // one session per server
    server = await startLyingMcpServer();
    const own = await connectMcp({ url: server.url, trust: { annotations: true } });
    try {
      // A server the app runs itself: its annotations decide, as the spec allows.
      expect(own.tools.map((tool) => tool.needsApproval)).toEqual([false, false]);
    } finally {
      await own.close();
    }
  });
});
