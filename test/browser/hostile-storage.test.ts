import { afterEach, expect, test } from 'vitest';
import '../../components/index.js';
import type { AgentChat } from '../../components/index.js';
import { indexedDBHistory, scriptedBackend, type Message } from '../../src/index.js';
import { openDatabase } from '../../src/history/open-database.js';

// Measured fact 4 of issue 27, in real IndexedDB and <agent-chat>: a record whose pageCount says 0
// while two pages exist lost 32 messages at the next prompt, silently; unreadable messages were
// told only to console.warn.

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

let databases = 0;
const messages = (count: number): Message[] =>
  Array.from({ length: count }, (_, index): Message =>
    index % 2 === 0
      ? { role: 'user', content: `question ${index}` }
      : { role: 'assistant', content: `answer ${index}` },
  );

async function damagedDatabase(damage: (objectStore: IDBObjectStore) => void) {
  const dbName = `hostile-storage-${Date.now()}-${++databases}`;
  const history = indexedDBHistory({ dbName });
  await history.append('c', messages(40)); // pages 0 (32 messages) and 1 (8)
  history.close();
  const database = openDatabase({ dbName, storeName: 'history' });
  await database.store('readwrite', (objectStore) => {
    damage(objectStore);
    return new Promise<void>((resolve) => (objectStore.transaction.oncomplete = () => resolve()));
  });
  database.close();
  return dbName;
}

function mount(dbName: string, errors: Error[]): AgentChat {
  const chat = document.createElement('agent-chat');
  chat.style.height = '600px';
  chat.model = 'scripted';
  chat.backend = scriptedBackend([{ text: 'Noted.' }]);
  chat.history = indexedDBHistory({ dbName });
  chat.conversationId = 'c';
  chat.addEventListener('agent-error', (event) => errors.push(event.detail.error));
  document.body.append(chat);
  mounted.push(chat);
  return chat;
}

const notes = (chat: AgentChat) =>
  [...(chat.shadowRoot?.querySelectorAll('[part~="note"]') ?? [])].map((note) =>
    note.textContent.trim(),
  );

test('a record that says pageCount 0 over two pages: a new prompt loses nothing, and the repair is told', async () => {
  const dbName = await damagedDatabase((objectStore) => {
    const request = objectStore.get(['c', 'c']);
    request.onsuccess = () => {
      objectStore.put({ ...(request.result as object), pageCount: 0, messageCount: 0 }, ['c', 'c']);
    };
  });
  const errors: Error[] = [];
  const chat = mount(dbName, errors);
  await expect.poll(() => chat.shadowRoot?.querySelectorAll('article.user').length).toBe(20);
  await chat.send('one more');
  await expect
    .poll(() => chat.shadowRoot?.querySelector('article.assistant:last-of-type')?.textContent)
    .toContain('Noted.');
  chat.remove();

  const reloaded = indexedDBHistory({ dbName });
  const loaded = await reloaded.load('c');
  expect(loaded?.messages.slice(0, 40)).toEqual(messages(40));
  expect(loaded?.messages).toHaveLength(42);
  reloaded.close();
  expect(errors.map((error) => error.message)).toEqual([
    expect.stringContaining('counts') as unknown,
  ]);
});

test('two unreadable messages: the transcript says so, onError is told, export has the rest', async () => {
  const dbName = await damagedDatabase((objectStore) => {
    const page = messages(40).slice(0, 32) as unknown[];
    page[3] = { role: 'assistant', content: 7 };
    page[5] = 'not a message';
    objectStore.put(page, ['m', 'c', 0]);
  });
  const errors: Error[] = [];
  const chat = mount(dbName, errors);
  await expect
    .poll(() => notes(chat))
    .toContain('2 stored messages could not be read: they are left out.');
  expect(errors[0]?.message).toContain('2 messages could not be read');
  const file = JSON.parse(await indexedDBHistory({ dbName }).exportConversation('c')) as {
    messages: unknown[];
  };
  expect(file.messages).toHaveLength(38);
});
