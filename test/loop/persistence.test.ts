import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { AgentError } from '../../src/errors/agent-error.js';
import type { HistoryStore } from '../../src/history/history-store.js';
import { memoryHistory } from '../../src/history/memory-history.js';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import type { ToolMessage } from '../../src/types/message.js';
import { collect } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import { add } from './fixtures.js';

const guarded = tool({
  name: 'delete_file',
  description: 'Deletes a file',
  input: z.object({ path: z.string() }),
  needsApproval: true,
  execute: ({ path }) => `deleted ${path}`,
});

describe('Client with a history store', () => {
  it('persists each message and loads the conversation in a new client (a reload)', async () => {
    const history = memoryHistory();
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'add', input: { a: 1, b: 2 } }] },
      { text: 'Three.' },
      { text: 'Bye.' },
    ]);
    const options = {
      model: 'm',
      backend,
      tools: [add],
      autoExecuteTools: true,
      history,
      conversationId: 'conv-1',
    };
    const first = new Client(options);
    await collect(first.run('1+2?'));
    expect((await history.load('conv-1'))?.messages).toEqual(first.history);

    const reloaded = new Client(options);
    await reloaded.ready;
    expect(reloaded.history).toEqual(first.history);
    await collect(reloaded.run('thanks'));
    // The tool's duration is kept for display, never sent.
    const { durationMs, ...sentResult } = first.history[2] as ToolMessage;
    expect(typeof durationMs).toBe('number');
    expect(backend.requests[2]?.messages.slice(0, 4)).toEqual(
      first.history.map((message, index) => (index === 2 ? sentResult : message)),
    );
    expect((await history.load('conv-1'))?.messages).toHaveLength(6);
  });

  it('keeps a paused approval waiting across a reload, and finishes it', async () => {
    const history = memoryHistory();
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'delete_file', input: { path: '/tmp/a' }, id: 'd1' }] },
      { text: 'Deleted.' },
    ]);
    const options = {
      model: 'm',
      backend,
      tools: [guarded],
      autoExecuteTools: true,
      history,
      conversationId: 'conv-2',
    };
    const first = new Client(options);
    await collect(first.run('clean'));
    expect(first.status).toBe('awaiting_tool_results');

    const reloaded = new Client(options);
    await reloaded.ready;
    expect(reloaded.pending).toEqual([
      { toolUseId: 'd1', name: 'delete_file', input: { path: '/tmp/a' }, reason: 'approval' },
    ]);
    reloaded.approve('d1');
    const events = await collect(reloaded.receiveMessages());
    expect(events.at(-1)).toMatchObject({ status: 'completed' });
    const stored = await history.load('conv-2');
    expect(stored?.pending).toBeUndefined();
    expect(stored?.messages).toEqual(reloaded.history);
    assertHistoryConsistent(reloaded.history);
  });

  it('restores a call interrupted mid-tool with an interrupted result', async () => {
    const history = memoryHistory();
    let release: () => void = () => undefined;
    const slow = tool({
      name: 'slow',
      description: '',
      input: z.object({}),
      execute: () => new Promise<string>((resolve) => (release = () => resolve('late'))),
    });
    const backend = scriptedBackend([{ toolCalls: [{ name: 'slow', input: {}, id: 's1' }] }]);
    const options = {
      model: 'm',
      backend,
      tools: [slow],
      autoExecuteTools: true,
      history,
      conversationId: 'conv-3',
    };
    const run = new Client(options).run('go')[Symbol.asyncIterator]();
    // Iterate until the tool is running (tool_use, step_end), then "reload".
    await run.next();
    await run.next();
    const reloaded = new Client(options);
    await reloaded.ready;
    assertHistoryConsistent(reloaded.history);
    expect(reloaded.history.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 's1',
      content: expect.stringContaining('interrupted') as unknown,
    });
    release();
  });

  it('reports a storage failure once and continues in memory', async () => {
    const inner = memoryHistory();
    const failing: HistoryStore = {
      ...inner,
      load: (id) => inner.load(id),
      append: vi.fn(() => Promise.reject(new DOMException('quota', 'QuotaExceededError'))),
      setPending: (id, pending) => inner.setPending(id, pending),
    };
    const onError = vi.fn();
    const backend = scriptedBackend([{ text: 'one' }, { text: 'two' }]);
    const client = new Client({
      model: 'm',
      backend,
      history: failing,
      conversationId: 'c',
      onError,
    });
    await collect(client.run('a'));
    await collect(client.run('b'));
    expect(onError).toHaveBeenCalledOnce();
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(AgentError);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ code: 'STORAGE_FAILED' });
    expect(client.history).toHaveLength(4);
  });
});
