import { describe, expect, it } from 'vitest';
import { Client, scriptedBackend, type AgentEvent } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/index.js';
import { startListChangingServer } from '../support/list-changing-server.js';

describe('notifications/tools/list_changed', () => {
  it('refreshes tools before the next model call of a running Client given tools: () => mcp.tools', async () => {
    // The change announced on the call's own stream, before its result.
    const changing = await startListChangingServer({ onRequestStream: true });
    const announced: string[][] = [];
    const mcp = await connectMcp({
      url: changing.url,
      approvals: { added: false, add_tool: false }, // no annotations: they would ask first
      onToolsChanged: (connection) => announced.push(connection.tools.map((entry) => entry.name)),
    });
    try {
      const before = mcp.tools;
      expect(before.map((candidate) => candidate.name)).toEqual(['add_tool']);
      const backend = scriptedBackend([
        { toolCalls: [{ name: 'add_tool', input: {} }] },
        { toolCalls: [{ name: 'added', input: {} }] },
        { text: 'done' },
      ]);
      const client = new Client({
        model: 'scripted',
        backend,
        tools: () => mcp.tools,
        autoExecuteTools: true,
      });
      const events: AgentEvent[] = [];
      for await (const event of client.run('add a tool, then use it')) events.push(event);
      // The call that changed the list returned once the new list was fetched: the very next
      // request offers the new tool, and the call to it runs on the server.
      expect(
        backend.requests.map((request) => request.tools?.map((entry) => entry.function.name)),
      ).toEqual([['add_tool'], ['add_tool', 'added'], ['add_tool', 'added']]);
      expect(events.filter((event) => event.type === 'tool_result')).toMatchObject([
        { name: 'add_tool', content: 'ok' },
        { name: 'added', content: 'added ran', isError: false },
      ]);
      expect(mcp.tools).not.toBe(before);
      expect(announced.at(-1)).toEqual(['add_tool', 'added']);
      expect(mcp.tools.map((candidate) => [candidate.name, candidate.needsApproval])).toEqual([
        ['add_tool', false],
        ['added', false],
      ]);
    } finally {
      await mcp.close();
      await changing.stop();
    }
  }, 30_000);

  it('an announcement on the standalone stream refreshes tools for the calls after it arrived', async () => {
    const changing = await startListChangingServer();
    let changed!: () => void;
    const announced = new Promise<void>((resolve) => (changed = resolve));
    const mcp = await connectMcp({
      url: changing.url,
      approvals: { added: false },
      onToolsChanged: () => changed(),
    });
    try {
      const before = mcp.tools;
      await Promise.resolve(
        before[0]?.execute?.({}, { signal: new AbortController().signal, toolUseId: 'a' }),
      );
      await announced;
      expect(mcp.tools.map((candidate) => candidate.name)).toEqual(['add_tool', 'added']);
      const backend = scriptedBackend([
        { toolCalls: [{ name: 'added', input: {} }] },
        { text: 'done' },
      ]);
      const client = new Client({
        model: 'scripted',
        backend,
        tools: () => mcp.tools,
        autoExecuteTools: true,
      });
      const events: AgentEvent[] = [];
      for await (const event of client.run('use the new tool')) events.push(event);
      expect(events.find((event) => event.type === 'tool_result')).toMatchObject({
        name: 'added',
        content: 'added ran',
      });
    } finally {
      await mcp.close();
      await changing.stop();
    }
  }, 30_000);
});
