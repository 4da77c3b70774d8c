import type { UseStore } from 'idb-keyval';
import { afterEach, describe, expect, test } from 'vitest';
import { isAgentError } from '../../src/errors/agent-error.js';
import type { HistoryChange, HistoryStore } from '../../src/history/history-store.js';
import {
  indexedDBHistory,
  type IndexedDBHistoryOptions,
} from '../../src/history/indexeddb-history.js';
import { openDatabase } from '../../src/history/open-database.js';
import { INTERRUPTED_TOOL_RESULT } from '../../src/history/repair-dangling-tool-calls.js';
import { assistant, callsTools, toolResult, user } from '../history/fixtures.js';
import { describeHistoryStore, rejection } from '../history/history-store-contract.js';

const run = Math.random().toString(36).slice(2);
let count = 0;
const opened: { history: HistoryStore; dbName: string }[] = [];
const frames: HTMLIFrameElement[] = [];

/** A store on Chromium's IndexedDB; closed and its database deleted after the test. */
function open(options: IndexedDBHistoryOptions & { dbName: string }): HistoryStore {
  const history = indexedDBHistory(options);
  opened.push({ history, dbName: options.dbName });
  return history;
}

const freshName = () => `history-test-${run}-${++count}`;

async function deleteDatabase(name: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('deleteDatabase failed'));
  });
}

afterEach(async () => {
  for (const { history } of opened) history.close?.();
  for (const name of new Set(opened.map(({ dbName }) => dbName))) await deleteDatabase(name);
  opened.length = 0;
  for (const frame of frames.splice(0)) frame.remove();
});

/** A second browsing context of this origin: its own IndexedDB connection and BroadcastChannel. */
async function otherTab(): Promise<typeof globalThis> {
  const frame = document.createElement('iframe');
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = 'about:blank';
  document.body.append(frame);
  await loaded;
  frames.push(frame);
  // A same-origin about:blank frame: its window is a full global of another realm.
  return frame.contentWindow as unknown as typeof globalThis;
}

describeHistoryStore('indexedDBHistory in Chromium', (now) => open({ dbName: freshName(), now }));

describe('indexedDBHistory in Chromium', () => {
  test('a reload (a new store on the same database) restores the identical history', async () => {
    const dbName = freshName();
    const before = open({ dbName });
    await before.append('c1', [user('hello')]);
    await before.append('c1', [callsTools('a'), toolResult('a'), assistant('done')]);
    await before.setPending('c1', { pending: [] });
    const stored = await before.load('c1');
    before.close?.();

    const after = open({ dbName });
    const restored = await after.load('c1');

    expect(restored).toEqual(stored);
    expect(restored?.messages).toEqual([
      user('hello'),
      callsTools('a'),
      toolResult('a'),
      assistant('done'),
    ]);
  });

  test('a reload mid-tool restores the unanswered call with an interrupted result', async () => {
    const dbName = freshName();
    const before = open({ dbName });
    await before.append('c1', [user('weather and time?'), callsTools('weather', 'time')]);
    await before.append('c1', [toolResult('weather')]);
    before.close?.();

    const restored = await open({ dbName }).load('c1');

    expect(restored?.messages).toEqual([
      user('weather and time?'),
      callsTools('weather', 'time'),
      toolResult('weather'),
      toolResult('time', INTERRUPTED_TOOL_RESULT),
    ]);
  });

  test('a paused approval survives a reload and its call is not marked interrupted', async () => {
    const dbName = freshName();
    const pending = {
      pending: [{ toolUseId: 'rm', name: 'tool_rm', input: { path: '/tmp' }, reason: 'approval' }],
    };
    const before = open({ dbName });
    await before.append('c1', [user('clean up'), callsTools('rm')]);
    await before.setPending('c1', pending);
    before.close?.();

    const restored = await open({ dbName }).load('c1');

    expect(restored?.pending).toEqual(pending);
    expect(restored?.messages).toEqual([user('clean up'), callsTools('rm')]);
  });

  test('two tabs writing alternately to one conversation keep all messages, in order per tab', async () => {
    const dbName = freshName();
    const frame = await otherTab();
    const tabA = open({ dbName });
    const tabB = open({
      dbName,
      indexedDB: frame.indexedDB,
      IDBKeyRange: frame.IDBKeyRange,
      BroadcastChannel: frame.BroadcastChannel,
    });

    for (let round = 0; round < 5; round++) {
      await tabA.append('shared', [user(`A${round}`)]);
      await tabB.append('shared', [assistant(`B${round}`)]);
    }
    // …and both at once, without waiting for each other.
    await Promise.all(
      Array.from({ length: 10 }, (_, index) => [
        tabA.append('shared', [user(`a${index}`)]),
        tabB.append('shared', [assistant(`b${index}`)]),
      ]).flat(),
    );

    const messages = (await tabA.load('shared'))?.messages ?? [];
    const texts = (pattern: RegExp) =>
      messages
        .map((message) => (typeof message.content === 'string' ? message.content : ''))
        .filter((text) => pattern.test(text));
    expect(messages).toHaveLength(30);
    expect(messages.slice(0, 10).map((message) => message.content)).toEqual([
      'A0',
      'B0',
      'A1',
      'B1',
      'A2',
      'B2',
      'A3',
      'B3',
      'A4',
      'B4',
    ]);
    expect(texts(/^a/)).toEqual(Array.from({ length: 10 }, (_, index) => `a${index}`));
    expect(texts(/^b/)).toEqual(Array.from({ length: 10 }, (_, index) => `b${index}`));
    expect(await tabB.load('shared')).toEqual(await tabA.load('shared'));
  });

  test("subscribe fires for the other tab's writes", async () => {
    const dbName = freshName();
    const frame = await otherTab();
    const tabA = open({ dbName });
    const tabB = open({
      dbName,
      indexedDB: frame.indexedDB,
      IDBKeyRange: frame.IDBKeyRange,
      BroadcastChannel: frame.BroadcastChannel,
    });
    const heardByA: HistoryChange[] = [];
    const deleted = new Promise<void>((resolve) =>
      tabA.subscribe((change) => {
        heardByA.push(change);
        if (change.kind === 'delete') resolve();
      }),
    );

    await tabB.append('c1', [user('from B')]);
    await tabB.setPending('c1', { pending: [] });
    await tabB.rename('c1', 'B named it');
    await tabB.delete('c1');
    await deleted;

    expect(heardByA).toEqual([
      { conversationId: 'c1', kind: 'append', remote: true },
      { conversationId: 'c1', kind: 'pending', remote: true },
      { conversationId: 'c1', kind: 'rename', remote: true },
      { conversationId: 'c1', kind: 'delete', remote: true },
    ]);
  });

  test('export in one database, import in another, after a reload', async () => {
    const source = open({ dbName: freshName() });
    await source.append('c1', [user('trip to Lyon'), callsTools('train'), toolResult('train')]);
    await source.setPending('c1', { pending: [] });
    const json = await source.exportConversation('c1');
    const targetName = freshName();

    const id = await open({ dbName: targetName }).importConversation(json);
    const restored = await open({ dbName: targetName }).load(id);

    expect(id).toBe('c1');
    expect(restored).toEqual(await source.load('c1'));
  });

  test('a quota failure rejects with STORAGE_FAILED, corrupts nothing, and the conversation goes on', async () => {
    const dbName = freshName();
    const database = openDatabase({ dbName, storeName: 'history' });
    let full = false;
    // Chromium reports a full quota by aborting the transaction at commit with a
    // QuotaExceededError; here the real transaction is aborted after its writes were queued.
    const store: UseStore = (mode, callback) =>
      database.store(mode, async (objectStore) => {
        if (mode !== 'readwrite' || !full) return callback(objectStore);
        const writes = Promise.resolve(callback(objectStore));
        writes.catch(() => undefined);
        objectStore.transaction.abort();
        await writes.catch(() => undefined);
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      });
    const history = open({ dbName, store });
    const errors: unknown[] = [];
    await history.append('c1', [user('before'), callsTools('a')]);
    full = true;

    for (const messages of [[toolResult('a')], [assistant('after')], [user('more')]]) {
      await history.append('c1', messages).catch((error: unknown) => errors.push(error));
    }
    const inMemory = await history.load('c1');
    const onDisk = await open({ dbName }).load('c1');
    database.close();

    expect(errors).toHaveLength(3);
    expect(errors.every((error) => isAgentError(error, 'STORAGE_FAILED'))).toBe(true);
    expect((errors[0] as Error).message).toContain('QuotaExceededError');
    expect(inMemory?.messages).toEqual([
      user('before'),
      callsTools('a'),
      toolResult('a'),
      assistant('after'),
      user('more'),
    ]);
    expect(onDisk?.messages).toEqual([
      user('before'),
      callsTools('a'),
      toolResult('a', INTERRUPTED_TOOL_RESULT),
    ]);
  });

  test('storage the browser refuses (SecurityError on open) rejects with STORAGE_FAILED', async () => {
    const refused = {
      open() {
        throw new DOMException('Access to storage is not allowed.', 'SecurityError');
      },
    } as unknown as IDBFactory; // only open() is called before it throws
    const history = open({ dbName: freshName(), indexedDB: refused });

    const error = await rejection(history.append('c1', [user('hi')]));

    expect(isAgentError(error, 'STORAGE_FAILED')).toBe(true);
    expect((error as Error).message).toContain('SecurityError: Access to storage is not allowed.');
  });

  test('an open store gives way to another tab upgrading the database, then reconnects', async () => {
    const dbName = freshName();
    const history = open({ dbName });
    await history.append('c1', [user('hi')]);

    // Another tab (another app version) upgrades the database: it is not blocked by our connection.
    const upgraded = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(dbName, 2);
      request.onupgradeneeded = () => request.result.createObjectStore('other');
      request.onblocked = () => reject(new Error('blocked by the history store'));
      request.onsuccess = () => resolve(request.result);
    });
    upgraded.close();
    await history.append('c1', [assistant('still here')]);

    expect((await history.load('c1'))?.messages).toEqual([user('hi'), assistant('still here')]);
  });
});
