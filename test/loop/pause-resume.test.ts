import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import { collect, types } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import { add, askUser, scriptedClient } from './fixtures.js';

describe('manual mode (every tool is external)', () => {
  it('pauses with the calls, then continues with the results and no new user message', async () => {
    const { client, backend } = scriptedClient([
      { toolCalls: [{ name: 'add', input: { a: 2, b: 2 }, id: 'c1' }] },
      { text: 'It is 4.' },
    ]);
    const first = await collect(client.run('2+2?'));
    expect(types(first)).toEqual(['tool_use', 'step_end', 'awaiting_tool_results', 'done']);
    expect(first[2]).toEqual({
      type: 'awaiting_tool_results',
      pending: [{ toolUseId: 'c1', name: 'add', input: { a: 2, b: 2 }, reason: 'external' }],
    });
    expect(first.at(-1)).toMatchObject({
      status: 'awaiting_tool_results',
      finishReason: 'tool_calls',
    });
    expect(client.status).toBe('awaiting_tool_results');

    client.addToolResult('c1', 4, { name: 'add' });
    expect(client.history).toHaveLength(3);
    client.continue();
    const second = await collect(client.receiveMessages());
    expect(second.at(-1)).toMatchObject({ status: 'completed' });
    expect(backend.requests).toHaveLength(2);
    expect(backend.requests[1]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
    ]);
    expect(client.history).toHaveLength(4);
    assertHistoryConsistent(client.history);
  });

  it('refuses to continue while results are missing', async () => {
    const { client } = scriptedClient([{ toolCalls: [{ name: 'add', input: { a: 1, b: 1 } }] }]);
    await collect(client.run('go'));
    expect(() => client.continue()).toThrow(/still wait for a result/);
    expect(() => client.addToolResult('nope', 1)).toThrow(/no pending tool call/);
  });

  it('echoes tool calls with JSON-string arguments and null content only beside tool calls', async () => {
    const { client, backend } = scriptedClient([
      { toolCalls: [{ name: 'add', input: { a: 1, b: 2 }, id: 'c9' }] },
      { text: 'ok' },
    ]);
    await collect(client.run('go'));
    client.submitToolResults([{ toolUseId: 'c9', content: { sum: 3 } }]);
    await collect(client.receiveMessages());
    const [user, assistant, result] = backend.requests[1]?.messages ?? [];
    expect(user).toEqual({ role: 'user', content: 'go' });
    expect(assistant).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c9', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } },
      ],
    });
    expect(result).toEqual({ role: 'tool', tool_call_id: 'c9', name: 'add', content: '{"sum":3}' });
    expect(client.history.at(-1)).toEqual({ role: 'assistant', content: 'ok' });
  });
});

describe('pause and resume', () => {
  it('runs internal calls, pauses for an external one, survives a JSON snapshot round trip and completes', async () => {
    const turns = [
      {
        toolCalls: [
          { name: 'add', input: { a: 1, b: 2 }, id: 'i1' },
          { name: 'ask_user', input: { question: 'Name?' }, id: 'e1' },
        ],
      },
      { text: 'Hello Ada, 1+2=3.' },
    ];
    const backend = scriptedBackend(turns);
    const options = { model: 'm', backend, tools: [add, askUser], autoExecuteTools: true };
    const client = new Client(options);
    const first = await collect(client.run('hi'));
    expect(types(first)).toEqual([
      'tool_use',
      'tool_use',
      'step_end',
      'tool_result',
      'awaiting_tool_results',
      'done',
    ]);
    expect(first.at(-1)).toMatchObject({ status: 'awaiting_tool_results' });

    const json = JSON.stringify(client.snapshot());
    const restored = Client.restore(JSON.parse(json), options);
    expect(restored.pending).toEqual([
      { toolUseId: 'e1', name: 'ask_user', input: { question: 'Name?' }, reason: 'external' },
    ]);
    restored.submitToolResults([{ toolUseId: 'e1', content: 'Ada' }]);
    const second = await collect(restored.receiveMessages());
    expect(second.at(-1)).toMatchObject({ status: 'completed' });
    const sent = backend.requests[1]?.messages ?? [];
    expect(sent.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'i1', name: 'add', content: '3' },
      { role: 'tool', tool_call_id: 'e1', name: 'ask_user', content: 'Ada' },
    ]);
    assertHistoryConsistent(restored.history);
  });

  it('chains pauses: pause, resume, pause again, complete', async () => {
    const { client } = scriptedClient(
      [
        { toolCalls: [{ name: 'ask_user', input: { question: 'A?' }, id: 'q1' }] },
        { toolCalls: [{ name: 'ask_user', input: { question: 'B?' }, id: 'q2' }] },
        { text: 'Thanks.' },
      ],
      { tools: [askUser], autoExecuteTools: true },
    );
    expect((await collect(client.run('start'))).at(-1)).toMatchObject({
      status: 'awaiting_tool_results',
    });
    client.submitToolResults([{ toolUseId: 'q1', content: 'a' }]);
    expect((await collect(client.receiveMessages())).at(-1)).toMatchObject({
      status: 'awaiting_tool_results',
    });
    client.submitToolResults([{ toolUseId: 'q2', content: 'b' }]);
    expect((await collect(client.receiveMessages())).at(-1)).toMatchObject({ status: 'completed' });
    expect(client.history).toHaveLength(6);
    assertHistoryConsistent(client.history);
  });

  it('answers still-pending calls when a new prompt arrives (no dangling calls)', async () => {
    const { client } = scriptedClient(
      [{ toolCalls: [{ name: 'ask_user', input: { question: 'A?' }, id: 'q1' }] }, { text: 'ok' }],
      {
        tools: [askUser],
        autoExecuteTools: true,
      },
    );
    await collect(client.run('start'));
    await collect(client.run('never mind'));
    assertHistoryConsistent(client.history);
    expect(client.history[2]).toMatchObject({
      role: 'tool',
      tool_call_id: 'q1',
      content: expect.stringMatching(/^Error: Skipped/) as unknown,
    });
  });

  it('rejects a snapshot that is not one', () => {
    expect(() =>
      Client.restore({ version: 2 }, { model: 'm', backend: scriptedBackend([]) }),
    ).toThrow(/Not a Client snapshot/);
  });
});

describe('approvals', () => {
  const remove = (execute: (input: { path: string }) => string) =>
    tool({
      name: 'delete_file',
      description: 'Deletes a file',
      input: z.object({ path: z.string() }),
      needsApproval: true,
      execute,
    });

  it('waits for approval and runs with edited input', async () => {
    const execute = vi.fn(({ path }: { path: string }) => `deleted ${path}`);
    const { client, backend } = scriptedClient(
      [
        { toolCalls: [{ name: 'delete_file', input: { path: '/etc' }, id: 'd1' }] },
        { text: 'Done.' },
      ],
      { tools: [remove(execute)], autoExecuteTools: true },
    );
    const first = await collect(client.run('clean up'));
    expect(first.find((event) => event.type === 'awaiting_tool_results')).toMatchObject({
      pending: [{ toolUseId: 'd1', reason: 'approval' }],
    });
    expect(execute).not.toHaveBeenCalled();
    client.approve('d1', { input: { path: '/tmp/x' } });
    const second = await collect(client.receiveMessages());
    expect(execute).toHaveBeenCalledWith({ path: '/tmp/x' }, expect.anything());
    expect(second.find((event) => event.type === 'tool_result')).toMatchObject({
      content: 'deleted /tmp/x',
    });
    expect(second.at(-1)).toMatchObject({ status: 'completed' });
    expect(backend.requests[1]?.messages.at(-1)).toMatchObject({ content: 'deleted /tmp/x' });
    assertHistoryConsistent(client.history);
  });

  it('refuses to approve an external call, which waits for a result', async () => {
    const { client } = scriptedClient(
      [{ toolCalls: [{ name: 'ask_user', input: { question: 'A?' }, id: 'q1' }] }],
      {
        tools: [askUser],
        autoExecuteTools: true,
      },
    );
    await collect(client.run('start'));
    expect(() => client.approve('q1')).toThrow(/waits for a result/);
    expect(client.pending).toHaveLength(1);
  });

  it('tells the model a denied call was denied and never runs it', async () => {
    const execute = vi.fn(() => 'x');
    const { client, backend } = scriptedClient(
      [
        { toolCalls: [{ name: 'delete_file', input: { path: '/' }, id: 'd1' }] },
        { text: 'Understood.' },
      ],
      { tools: [remove(execute)], autoExecuteTools: true },
    );
    await collect(client.run('wipe'));
    client.deny('d1', 'too dangerous');
    // deny() only records; iterating again resumes with a model call (no continue() needed).
    expect((await collect(client.receiveMessages())).at(-1)).toMatchObject({
      status: 'completed',
      iterations: 1,
    });
    expect(execute).not.toHaveBeenCalled();
    expect(backend.requests[1]?.messages.at(-1)?.content).toBe(
      'Error: Tool "delete_file" was denied: too dangerous',
    );
    assertHistoryConsistent(client.history);
  });
});
