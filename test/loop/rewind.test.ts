import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { indexedDBHistory } from '../../src/history/indexeddb-history.js';
import type { HistoryStore } from '../../src/history/history-store.js';
import { memoryHistory } from '../../src/history/memory-history.js';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import type { Message } from '../../src/types/message.js';
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

describe('Client.rewind: continue from a given message', () => {
  it('edit and resend: the next call sends only what came before the edited prompt', async () => {
    const fake = fakeFetch([say('A'), say('B'), say('B2')]);
    const client = new Client({
      model: 'm',
      baseURL: 'http://x/v1',
      fetch: fake.fetch,
      contextWindow: 32_768,
    });
    await collect(client.run('one'));
    await collect(client.run('two'));
    await client.rewind(2);
    await collect(client.run('two, edited'));
    expect(sent(fake.requests[2]?.body)).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'A' },
      { role: 'user', content: 'two, edited' },
    ]);
    expect(client.history.map((message) => message.content)).toEqual([
      'one',
      'A',
      'two, edited',
      'B2',
    ]);
  });

  it('a paused round after the rewind point goes with it: no dangling call is sent', async () => {
    const fake = fakeFetch([callTool(), say('again')]);
    const look = tool({
      name: 'look',
      description: 'Looks',
      input: { type: 'object', properties: {} },
    });
    const client = new Client({
      model: 'm',
      baseURL: 'http://x/v1',
      fetch: fake.fetch,
      contextWindow: 32_768,
      tools: [look],
    });
    await collect(client.run('look'));
    expect(client.status).toBe('awaiting_tool_results');
    await client.rewind(0);
    expect(client.status).toBe('idle');
    await collect(client.run('look again'));
    expect(sent(fake.requests[1]?.body)).toEqual([{ role: 'user', content: 'look again' }]);
  });

  it('refuses an index that is not a user message', async () => {
    const client = new Client({
      model: 'm',
      baseURL: 'http://x/v1',
      fetch: fakeFetch([say('A')]).fetch,
      contextWindow: 32_768,
    });
    await collect(client.run('one'));
    expect(() => client.rewind(1)).toThrow(TypeError);
    expect(() => client.rewind(5)).toThrow(TypeError);
  });

  it.each<[string, () => HistoryStore]>([
    ['memoryHistory', () => memoryHistory()],
    [
      'indexedDBHistory',
      () => indexedDBHistory({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'rewind' }),
    ],
  ])(
    '%s: the stored conversation is rewritten, keeping its title; a reload sees it',
    async (_name, makeStore) => {
      const history = makeStore();
      const fake = fakeFetch([say('A'), say('B'), say('A2')]);
      const options = {
        model: 'm',
        baseURL: 'http://x/v1',
        fetch: fake.fetch,
        contextWindow: 32_768,
        history,
        conversationId: 'c',
      };
      const client = new Client(options);
      await collect(client.run('one'));
      await collect(client.run('two'));
      await history.rename('c', 'Mine');
      await client.rewind(2);
      await client.close();
      const stored = await history.load('c');
      expect(stored?.title).toBe('Mine');
      expect(stored?.messages.map((message) => message.content)).toEqual(['one', 'A']);
      const reloaded = new Client(options);
      await reloaded.ready;
      await reloaded.rewind(0);
      // Nothing is left in the active branch; the old one stays reachable.
      expect((await history.load('c'))?.messages).toEqual([]);
      expect(reloaded.branchesAt(0)).toEqual({ active: 1, count: 2 });
      await collect(reloaded.run('fresh'));
      expect(sent(fake.requests[2]?.body)).toEqual([{ role: 'user', content: 'fresh' }]);
    },
  );
});
