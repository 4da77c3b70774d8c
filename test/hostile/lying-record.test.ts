import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import {
  Client,
  indexedDBHistory,
  isAgentError,
  scriptedBackend,
  type AgentError,
  type Message,
} from '../../src/index.js';
import { openDatabase } from '../../src/history/open-database.js';
import { collect } from '../support/collect.js';

// Measured fact 4 of issue 27: a conversation record whose `pageCount` says 0 while two pages
// exist. All 40 messages loaded (reads go by key range), then one new prompt was written at
// page 0 (appends trusted the count): after a reload 32 messages were gone, with no warning.

let databases = 0;
const messages = (count: number): Message[] =>
  Array.from({ length: count }, (_, index): Message =>
    index % 2 === 0
      ? { role: 'user', content: `question ${index}` }
      : { role: 'assistant', content: `answer ${index}` },
  );

async function lyingRecord() {
  const browser = { indexedDB: new IDBFactory(), IDBKeyRange, dbName: `lying-${++databases}` };
  const database = openDatabase({ ...browser, storeName: 'history' });
  const history = indexedDBHistory({ ...browser, store: database.store });
  await history.append('c', messages(40)); // pages 0 (32 messages) and 1 (8)
  await database.store('readwrite', async (objectStore) => {
    const record = await new Promise<Record<string, unknown>>((resolve) => {
      const request = objectStore.get(['c', 'c']);
      request.onsuccess = () => resolve(request.result as Record<string, unknown>);
    });
    objectStore.put({ ...record, pageCount: 0, messageCount: 0 }, ['c', 'c']);
  });
  history.close();
  return { browser, database };
}

describe('a stored record that lies about its counts', () => {
  it('an append after it never overwrites a stored page: all 42 messages load after a reload', async () => {
    const { browser, database } = await lyingRecord();
    const errors: AgentError[] = [];
    const history = indexedDBHistory({ ...browser, store: database.store });
    const client = new Client({
      model: 'm',
      backend: scriptedBackend([{ text: 'fine' }]),
      history,
      conversationId: 'c',
      onError: (error) => errors.push(error),
    });
    await client.ready;
    expect(client.history).toHaveLength(40);
    await collect(client.run('one more'));
    await client.close();
    history.close();

    const reloaded = indexedDBHistory({ ...browser, store: database.store });
    const loaded = await reloaded.load('c');
    expect(loaded?.messages).toHaveLength(42);
    expect(loaded?.messages.slice(0, 40)).toEqual(messages(40));
    // The record's counts were repaired from the pages that exist.
    expect((await reloaded.list())[0]?.messageCount).toBe(42);
    // The damage was told, not only to the console.
    expect(errors.map((error) => error.code)).toEqual(['STORAGE_FAILED']);
    expect(errors[0]?.message).toMatch(/count/);
    reloaded.close();
  });

  it('unreadable messages are reported through onError with how many, and export keeps the rest', async () => {
    const browser = { indexedDB: new IDBFactory(), IDBKeyRange, dbName: `lying-${++databases}` };
    const database = openDatabase({ ...browser, storeName: 'history' });
    const history = indexedDBHistory({ ...browser, store: database.store });
    await history.append('c', messages(10));
    await database.store('readwrite', (objectStore) => {
      const page = [...messages(10)] as unknown[];
      page[3] = { role: 'assistant', content: 7 };
      page[5] = 'not a message';
      objectStore.put(page, ['m', 'c', 0]);
    });
    const errors: AgentError[] = [];
    const client = new Client({
      model: 'm',
      backend: scriptedBackend([]),
      history,
      conversationId: 'c',
      onError: (error) => errors.push(error),
    });
    await client.ready;
    expect(client.history).toHaveLength(8);
    expect(errors).toHaveLength(1);
    expect(isAgentError(errors[0], 'STORAGE_FAILED')).toBe(true);
    expect(errors[0]?.message).toContain('2 messages could not be read');
    expect(errors[0]?.context).toMatchObject({ unreadableMessages: 2 });
    const file = JSON.parse(await history.exportConversation('c')) as { messages: unknown[] };
    expect(file.messages).toHaveLength(8);
    history.close();
  });
});
