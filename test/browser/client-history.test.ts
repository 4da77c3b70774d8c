import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { indexedDBHistory } from '../../src/history/indexeddb-history.js';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import { javascriptTool } from '../../src/tools/javascript-tool.js';
import { collect } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';

// A Client on Chromium's IndexedDB: each "reload" is a new store and a new Client on the
// same database, which is what a page load does.
const run = Math.random().toString(36).slice(2);
let count = 0;
const stores: { close(): void }[] = [];
const databases: string[] = [];

function reload(dbName: string) {
  const history = indexedDBHistory({ dbName });
  stores.push(history);
  return history;
}

afterEach(async () => {
  for (const store of stores.splice(0)) store.close();
  for (const name of databases.splice(0)) {
    await new Promise((resolve) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = request.onerror = resolve;
    });
  }
});

function freshDatabase(): string {
  const name = `client-history-${run}-${++count}`;
  databases.push(name);
  return name;
}

describe('Client with indexedDBHistory in Chromium', () => {
  test('a conversation with a sandbox tool call survives a reload identically', async () => {
    const dbName = freshDatabase();
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'run_javascript', input: { code: 'console.log("hi"); 6 * 7' } }] },
      { text: 'The answer is 42.' },
    ]);
    const options = {
      model: 'm',
      backend,
      tools: [javascriptTool()],
      autoExecuteTools: true,
      conversationId: 'c1',
    };
    const client = new Client({ ...options, history: reload(dbName) });
    const events = await collect(client.run('compute 6*7'));
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({
      content: { result: 42, logs: ['hi'] },
    });

    const after = new Client({ ...options, history: reload(dbName) });
    await after.ready;
    expect(after.history).toEqual(client.history);
    expect(after.history).toHaveLength(4);
    assertHistoryConsistent(after.history);
  });

  test('a reload in the middle of a tool call restores it with an interrupted result', async () => {
    const dbName = freshDatabase();
    const stuck = tool({
      name: 'stuck',
      description: 'never ends',
      input: z.object({}),
      execute: () => new Promise(() => undefined),
    });
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'stuck', input: {}, id: 'call00001' }] },
    ]);
    const options = {
      model: 'm',
      backend,
      tools: [stuck],
      autoExecuteTools: true,
      conversationId: 'c2',
    };
    const events = new Client({ ...options, history: reload(dbName) })
      .run('go')
      [Symbol.asyncIterator]();
    expect((await events.next()).value).toMatchObject({ type: 'tool_use' });
    expect((await events.next()).value).toMatchObject({ type: 'step_end' });
    // The tool is running now; the page goes away.
    await new Promise((resolve) => setTimeout(resolve, 50));

    const after = new Client({ ...options, history: reload(dbName) });
    await after.ready;
    assertHistoryConsistent(after.history);
    expect(after.history.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'call00001',
      content: expect.stringContaining('interrupted') as unknown,
    });
  });

  test('an approval still waits after a reload', async () => {
    const dbName = freshDatabase();
    const guarded = tool({
      name: 'wipe',
      description: 'wipes',
      input: z.object({ path: z.string() }),
      needsApproval: true,
      execute: ({ path }) => `wiped ${path}`,
    });
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'wipe', input: { path: '/tmp' }, id: 'w1' }] },
      { text: 'Done.' },
    ]);
    const options = {
      model: 'm',
      backend,
      tools: [guarded],
      autoExecuteTools: true,
      conversationId: 'c3',
    };
    await collect(new Client({ ...options, history: reload(dbName) }).run('wipe tmp'));

    const after = new Client({ ...options, history: reload(dbName) });
    await after.ready;
    expect(after.status).toBe('awaiting_tool_results');
    expect(after.pending).toEqual([
      { toolUseId: 'w1', name: 'wipe', input: { path: '/tmp' }, reason: 'approval' },
    ]);
    after.approve('w1');
    expect((await collect(after.receiveMessages())).at(-1)).toMatchObject({ status: 'completed' });
    assertHistoryConsistent(after.history);
  });

  test("a client in another tab learns of the first tab's turn and continues from it", async () => {
    const dbName = freshDatabase();
    const backend = scriptedBackend([{ text: 'Hi from tab A.' }, { text: 'Hi from tab B.' }]);
    const options = { model: 'm', backend, conversationId: 'shared' };
    const tabA = new Client({ ...options, history: reload(dbName) });
    const tabB = new Client({ ...options, history: reload(dbName) });
    await Promise.all([tabA.ready, tabB.ready]);
    await collect(tabA.run('hello from A'));
    await expect.poll(() => tabB.history).toEqual(tabA.history);
    await collect(tabB.run('hello from B'));
    expect(backend.requests[1]?.messages.map((message) => message.content)).toEqual([
      'hello from A',
      'Hi from tab A.',
      'hello from B',
    ]);
  });
});
