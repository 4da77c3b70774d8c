import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { query } from '../../src/loop/query.js';
import { tool } from '../../src/tools/tool.js';
import { collect, types } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import { add, scriptedClient } from './fixtures.js';

// DESIGN.md, contract additions: without autoExecuteTools (and always in query()), the runtime
// makes no model call the caller did not ask for.
const badCalls = {
  toolCalls: [
    { name: 'subtract', input: { a: 1 }, id: 'u1' },
    { name: 'add', arguments: '{"a": 1,', id: 'j1' },
    { name: 'add', input: { a: 'one', b: 2 }, id: 's1' },
  ],
};

describe('no model call the caller did not ask for', () => {
  it('query() makes exactly one model call when every call is invalid', async () => {
    const backend = scriptedBackend([badCalls, badCalls, badCalls, badCalls, badCalls]);

    const events = await collect(query('Add', { model: 'm', backend, tools: [add] }));

    expect(backend.requests).toHaveLength(1);
    expect(
      events.flatMap((event) => (event.type === 'tool_use_error' ? [event.code] : [])),
    ).toEqual(['INVALID_TOOL_INPUT', 'TOOL_NOT_FOUND', 'INVALID_TOOL_INPUT']);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed', iterations: 1 });
  });

  it('a manual Client ends the run; the error results wait in history for continue()', async () => {
    const { client, backend } = scriptedClient([badCalls, { text: 'Sorry.' }]);

    const first = await collect(client.run('Add'));

    expect(backend.requests).toHaveLength(1);
    expect(types(first).filter((type) => type === 'tool_use_error')).toHaveLength(3);
    expect(first.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
    expect(client.status).toBe('idle');
    expect(client.history.slice(-3).map((message) => message.role)).toEqual([
      'tool',
      'tool',
      'tool',
    ]);
    assertHistoryConsistent(client.history);

    client.continue();
    const second = await collect(client.receiveMessages());

    expect(backend.requests).toHaveLength(2);
    expect(backend.requests[1]?.messages.slice(-3).map((message) => message.role)).toEqual([
      'tool',
      'tool',
      'tool',
    ]);
    expect(second.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
  });

  it('a manual Client with one valid and one invalid call waits for the valid one', async () => {
    const { client, backend } = scriptedClient([
      {
        toolCalls: [
          { name: 'add', input: { a: 1, b: 2 }, id: 'ok' },
          { name: 'nope', input: {}, id: 'bad' },
        ],
      },
    ]);

    const events = await collect(client.run('Add'));

    expect(backend.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ status: 'awaiting_tool_results' });
    expect(client.pending.map((call) => call.toolUseId)).toEqual(['ok']);
  });
});

describe('every denial yields one TOOL_DENIED tool_use_error', () => {
  const remove = tool({
    name: 'delete_file',
    description: 'Deletes a file',
    input: z.object({ path: z.string() }),
    needsApproval: true,
    execute: vi.fn(() => 'deleted'),
  });

  it('deny() after an approval pause', async () => {
    const { client } = scriptedClient(
      [{ toolCalls: [{ name: 'delete_file', input: { path: '/' }, id: 'd1' }] }, { text: 'OK.' }],
      { tools: [remove], autoExecuteTools: true },
    );
    await collect(client.run('wipe'));

    client.deny('d1', 'too dangerous');
    const resumed = await collect(client.receiveMessages());

    const denials = resumed.filter((event) => event.type === 'tool_use_error');
    expect(denials).toEqual([
      {
        type: 'tool_use_error',
        code: 'TOOL_DENIED',
        error: 'Tool "delete_file" was denied: too dangerous',
        toolUseId: 'd1',
        name: 'delete_file',
      },
    ]);
    expect(types(resumed)).toEqual(['tool_use_error', 'text', 'step_end', 'done']);
    assertHistoryConsistent(client.history);
  });

  it('deny() of one of two pending calls, the other answered later', async () => {
    const { client } = scriptedClient(
      [
        {
          toolCalls: [
            { name: 'delete_file', input: { path: '/a' }, id: 'd1' },
            { name: 'delete_file', input: { path: '/b' }, id: 'd2' },
          ],
        },
        { text: 'OK.' },
      ],
      { tools: [remove], autoExecuteTools: true },
    );
    await collect(client.run('wipe'));

    client.deny('d1', 'no');
    client.deny('d2', 'no');
    const resumed = await collect(client.receiveMessages());

    expect(
      resumed.flatMap((event) =>
        event.type === 'tool_use_error' ? [`${event.toolUseId}:${event.code}`] : [],
      ),
    ).toEqual(['d1:TOOL_DENIED', 'd2:TOOL_DENIED']);
  });

  it('a PreToolUse deny', async () => {
    const { client } = scriptedClient(
      [{ toolCalls: [{ name: 'add', input: { a: 1, b: 2 }, id: 'a1' }] }, { text: 'OK.' }],
      {
        autoExecuteTools: true,
        hooks: { PreToolUse: [() => ({ continue: false, reason: 'not now' })] },
      },
    );

    const events = await collect(client.run('Add'));

    expect(events.filter((event) => event.type === 'tool_use_error')).toMatchObject([
      { code: 'TOOL_DENIED', toolUseId: 'a1', name: 'add' },
    ]);
  });
});
