import { afterEach, describe, expect, test } from 'vitest';
import type { HistoryStore } from '../../src/history/history-store.js';
import { indexedDBHistory } from '../../src/history/indexeddb-history.js';
import type { Message } from '../../src/types/message.js';

// Images in IndexedDB: stored as Blobs beside the pages, not as base64 text inside them.
const run = Math.random().toString(36).slice(2);
let count = 0;
const opened: { history: HistoryStore & { close(): void }; dbName: string }[] = [];

function open(): { history: HistoryStore & { close(): void }; dbName: string } {
  const dbName = `history-images-${run}-${++count}`;
  const entry = { history: indexedDBHistory({ dbName }), dbName };
  opened.push(entry);
  return entry;
}

afterEach(async () => {
  for (const { history, dbName } of opened.splice(0)) {
    history.close();
    await new Promise((resolve) => {
      const request = indexedDB.deleteDatabase(dbName);
      request.onsuccess = request.onerror = resolve;
    });
  }
});

/** Every record of the database's one object store, with its key. */
async function records(dbName: string): Promise<{ key: unknown; value: unknown }[]> {
  const database = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(dbName);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('open failed'));
  });
  const store = database
    .transaction(database.objectStoreNames[0] ?? '')
    .objectStore(database.objectStoreNames[0] ?? '');
  const [keys, values] = await Promise.all(
    [store.getAllKeys(), store.getAll()].map(
      (request) =>
        new Promise<unknown[]>((resolve) => {
          request.onsuccess = () => resolve(request.result as unknown[]);
        }),
    ),
  );
  database.close();
  return (keys ?? []).map((key, index) => ({ key, value: values?.[index] }));
}

const png = `data:image/png;base64,${btoa(String.fromCharCode(...Array.from({ length: 3000 }, (_, index) => index % 256)))}`;
const withImage: Message = {
  role: 'user',
  content: [
    { type: 'text', text: 'What is this?' },
    { type: 'image_url', image_url: { url: png } },
  ],
};

describe('images in indexedDBHistory', () => {
  test('are stored once as Blobs, not in the pages, and load as the same data URLs', async () => {
    const { history, dbName } = open();
    await history.append('c', [withImage]);
    for (let index = 0; index < 5; index++) {
      await history.append('c', [
        { role: 'assistant', content: `Answer ${index}` },
        { role: 'user', content: `Question ${index}` },
      ]);
    }
    const stored = await records(dbName);
    const blobs = stored.filter(({ value }) => (value as { blob?: unknown })?.blob instanceof Blob);
    expect(blobs).toHaveLength(1);
    expect((blobs[0]?.value as { blob: Blob }).blob.type).toBe('image/png');
    const pages = stored.filter(({ key }) => Array.isArray(key) && key[0] === 'm');
    expect(JSON.stringify(pages.map(({ value }) => value))).not.toContain('base64');

    const loaded = await history.load('c');
    expect(loaded?.messages[0]).toEqual(withImage);
    expect(loaded?.messages).toHaveLength(11);
  });

  test('travel in the exported file as data URLs, and import as Blobs again', async () => {
    const { history } = open();
    await history.append('c', [withImage, { role: 'assistant', content: 'A pattern.' }]);
    const file = await history.exportConversation('c');
    expect(JSON.parse(file)).toMatchObject({
      version: 2,
      messages: [withImage, { role: 'assistant' }],
    });

    const other = open();
    const id = await other.history.importConversation(file);
    expect((await other.history.load(id))?.messages[0]).toEqual(withImage);
    expect(
      (await records(other.dbName)).filter(
        ({ value }) => (value as { blob?: unknown })?.blob instanceof Blob,
      ),
    ).toHaveLength(1);
  });

  test('are deleted with their conversation', async () => {
    const { history, dbName } = open();
    await history.append('c', [withImage]);
    await history.delete('c');
    expect(await records(dbName)).toEqual([]);
  });
});
