import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { indexedDBHistory } from '../../src/history/indexeddb-history.js';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import type { Message } from '../../src/types/message.js';
import type { MessageFork } from '../../src/types/message-fork.js';
import { collect } from '../support/collect.js';
import { fakeFetch, sseBody, sseResponse } from '../support/fake-fetch.js';

const say = (text: string) =>
  sseResponse(
    sseBody([
      { choices: [{ index: 0, delta: { content: text }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ]),
  );
const callTool = () =>
  sseResponse(
    sseBody([
      {
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [{ index: 0, id: 'c1', function: { name: 'look', arguments: '{}' } }],
            },
            finish_reason: null,
          },
        ],
      },
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ]),
  );
const sent = (body: unknown) => (body as { messages: Message[] }).messages;
const texts = (messages: readonly Message[]) => messages.map((message) => message.content);
const options = (fetch: typeof globalThis.fetch) => ({
  model: 'm',
  baseURL: 'http://x/v1',
  fetch,
  contextWindow: 32_768,
});

/** Every tool call of `messages` and of every branch under `forks` has its result. */
function everyCallAnswered(
  messages: readonly Message[],
  forks: readonly MessageFork[] = [],
  before: readonly Message[] = [],
): boolean {
  const whole = [...before, ...messages];
  const calls = whole.flatMap((message) =>
    message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
  );
  const results = new Set(
    whole.flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : [])),
  );
  if (!calls.every((id) => results.has(id))) return false;
  return forks.every((fork) =>
    fork.branches.every(
      (branch) =>
        branch === null ||
        everyCallAnswered(branch.messages, branch.forks, whole.slice(0, fork.index)),
    ),
  );
}

describe('Client branches: regenerate and edit keep earlier versions', () => {
  it('regenerate: branchFrom(prompt) + continue sends that branch only; the old answer stays reachable', async () => {
    const fake = fakeFetch([say('A'), say('A2')]);
    const client = new Client(options(fake.fetch));
    await collect(client.run('one'));
    await client.branchFrom(0);
    client.continue();
    await collect(client.receiveMessages());

    expect(sent(fake.requests[1]?.body)).toEqual([{ role: 'user', content: 'one' }]);
    expect(texts(client.history)).toEqual(['one', 'A2']);
    expect(client.branchesAt(1)).toEqual({ active: 1, count: 2 });
    expect(client.branchesAt(0)).toEqual({ active: 0, count: 1 });
    await client.switchBranch(1, 0);
    expect(texts(client.history)).toEqual(['one', 'A']);
    expect(client.branchesAt(1)).toEqual({ active: 0, count: 2 });
  });

  it('edit an earlier prompt: its old continuation comes back whole on switching, nested versions too', async () => {
    const fake = fakeFetch([say('A'), say('B'), say('C'), say('B2'), say('C2'), say('C3')]);
    const client = new Client(options(fake.fetch));
    for (const prompt of ['one', 'two', 'three']) await collect(client.run(prompt));
    await client.rewind(2);
    await collect(client.run('two, edited'));
    expect(sent(fake.requests[3]?.body).map((message) => message.content)).toEqual([
      'one',
      'A',
      'two, edited',
    ]);
    await collect(client.run('three'));
    await client.branchFrom(4); // regenerate C2 inside the new branch
    client.continue();
    await collect(client.receiveMessages());
    expect(texts(client.history)).toEqual(['one', 'A', 'two, edited', 'B2', 'three', 'C3']);

    await client.switchBranch(2, 0);
    expect(texts(client.history)).toEqual(['one', 'A', 'two', 'B', 'three', 'C']);
    expect(client.branchesAt(5)).toEqual({ active: 0, count: 1 });
    await client.switchBranch(2, 1);
    expect(texts(client.history)).toEqual(['one', 'A', 'two, edited', 'B2', 'three', 'C3']);
    expect(client.branchesAt(5)).toEqual({ active: 1, count: 2 });
    await client.switchBranch(5, 0);
    expect(texts(client.history)).toEqual(['one', 'A', 'two, edited', 'B2', 'three', 'C2']);
  });

  it('a paused round is answered before its branch is left: no branch keeps a call without a result', async () => {
    const fake = fakeFetch([callTool(), say('plain')]);
    const look = tool({
      name: 'look',
      description: 'Looks',
      input: { type: 'object', properties: {} },
    });
    const client = new Client({ ...options(fake.fetch), tools: [look] });
    await collect(client.run('look'));
    expect(client.status).toBe('awaiting_tool_results');
    await client.branchFrom(0);
    expect(client.status).toBe('idle');
    client.continue();
    await collect(client.receiveMessages());
    expect(sent(fake.requests[1]?.body)).toEqual([{ role: 'user', content: 'look' }]);
    const snapshot = client.snapshot();
    expect(everyCallAnswered(snapshot.messages, snapshot.forks)).toBe(true);
    await client.switchBranch(1, 0);
    expect(client.history.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
  });

  it('refuses a cut that would part a call from its result, and an unknown version', async () => {
    const fake = fakeFetch([callTool(), say('done')]);
    const look = tool({
      name: 'look',
      description: 'Looks',
      input: { type: 'object', properties: {} },
      execute: () => 'seen',
    });
    const client = new Client({ ...options(fake.fetch), tools: [look], autoExecuteTools: true });
    await collect(client.run('look'));
    expect(texts(client.history)).toEqual(['look', null, 'seen', 'done']);
    await expect(client.branchFrom(1)).rejects.toThrow(TypeError);
    await expect(client.switchBranch(1, 1)).rejects.toThrow(RangeError);
    expect(client.history).toHaveLength(4);
  });

  it('snapshot and restore keep the branches', async () => {
    const fake = fakeFetch([say('A'), say('A2')]);
    const client = new Client(options(fake.fetch));
    await collect(client.run('one'));
    await client.branchFrom(0);
    client.continue();
    await collect(client.receiveMessages());
    const restored = Client.restore(
      JSON.parse(JSON.stringify(client.snapshot())),
      options(fake.fetch),
    );
    expect(restored.branchesAt(1)).toEqual({ active: 1, count: 2 });
    await restored.switchBranch(1, 0);
    expect(texts(restored.history)).toEqual(['one', 'A']);
  });

  it('branches and the version shown survive a reload from IndexedDB', async () => {
    const history = indexedDBHistory({
      indexedDB: new IDBFactory(),
      IDBKeyRange,
      dbName: 'branches',
    });
    const fake = fakeFetch([say('A'), say('A2'), say('next')]);
    const stored = { ...options(fake.fetch), history, conversationId: 'c' };
    const client = new Client(stored);
    await collect(client.run('one'));
    await client.branchFrom(0);
    client.continue();
    await collect(client.receiveMessages());
    await client.switchBranch(1, 0);
    await client.close();

    const reloaded = new Client(stored);
    await reloaded.ready;
    expect(texts(reloaded.history)).toEqual(['one', 'A']);
    expect(reloaded.branchesAt(1)).toEqual({ active: 0, count: 2 });
    // The loop appends to the branch shown, at its usual cost; the other stays.
    await collect(reloaded.run('two'));
    expect(sent(fake.requests[2]?.body).map((message) => message.content)).toEqual([
      'one',
      'A',
      'two',
    ]);
    await reloaded.close();
    const again = new Client(stored);
    await again.ready;
    await again.switchBranch(1, 1);
    expect(texts(again.history)).toEqual(['one', 'A2']);
    await again.switchBranch(1, 0);
    expect(texts(again.history)).toEqual(['one', 'A', 'two', 'next']);
  });
});
