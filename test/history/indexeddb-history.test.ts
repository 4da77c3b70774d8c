import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { UseStore } from 'idb-keyval';
import fc from 'fast-check';
import { promisifyRequest } from 'idb-keyval';
import { describe, expect, test, vi } from 'vitest';
import type { Message } from '../../src/types/message.js';
import { isAgentError } from '../../src/errors/agent-error.js';
import type { HistoryChange } from '../../src/history/history-store.js';
import {
  indexedDBHistory,
  type IndexedDBHistoryOptions,
} from '../../src/history/indexeddb-history.js';
import { openDatabase } from '../../src/history/open-database.js';
import { assistant, callsTools, toolResult, user } from './fixtures.js';
import { describeHistoryStore, rejection } from './history-store-contract.js';

let databases = 0;

/** A fresh fake IndexedDB (no global patch) and a unique database name per test. */
function fakeBrowser() {
  return { indexedDB: new IDBFactory(), IDBKeyRange, dbName: `test-${++databases}` };
}

describeHistoryStore('indexedDBHistory on fake-indexeddb', (now) =>
  indexedDBHistory({ ...fakeBrowser(), now }),
);

/** The object store calls each transaction makes, recorded through a wrapping custom store. */
function recordingStore(inner: UseStore) {
  const calls: string[][] = [];
  const store: UseStore = (mode, callback) =>
    inner(mode, (objectStore) => {
      const transaction: string[] = [];
      calls.push(transaction);
      const spy = new Proxy(objectStore, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            transaction.push(String(property));
            return (value as (...args: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      return callback(spy);
    });
  return { store, calls };
}

/** A custom store whose readwrite transactions fail like a full disk while `full` is true. */
function quotaStore(inner: UseStore) {
  const state = { full: false, failures: 0 };
  const store: UseStore = (mode, callback) =>
    inner(mode, async (objectStore) => {
      if (mode !== 'readwrite' || !state.full) return callback(objectStore);
      const result = Promise.resolve(callback(objectStore));
      result.catch(() => undefined); // the abort below fails it; we report quota instead
      objectStore.transaction.abort();
      state.failures += 1;
      await result.catch(() => undefined);
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
  return { store, state };
}

describe('indexedDBHistory on fake-indexeddb', () => {
  test('a new instance on the same database (a reload) loads the identical conversation', async () => {
    const browser = fakeBrowser();
    const before = indexedDBHistory(browser);
    await before.append('c1', [user('hello'), callsTools('a'), toolResult('a')]);
    await before.setPending('c1', { pending: [] });
    const stored = await before.load('c1');
    before.close();

    const after = indexedDBHistory(browser);
    const loaded = await after.load('c1');

    expect(loaded).toEqual(stored);
    expect(loaded?.messages).toEqual([user('hello'), callsTools('a'), toolResult('a')]);
    after.close();
  });

  test('append touches the record and the last page only, whatever the conversation length', async () => {
    const browser = fakeBrowser();
    const database = openDatabase({ ...browser, storeName: 'history' });
    const { store, calls } = recordingStore(database.store);
    const history = indexedDBHistory({ ...browser, store });
    const many = (count: number) =>
      Array.from({ length: count }, (_, index) => assistant(`m${index}`));
    await history.append('c1', [user('first')]);
    const first = calls.at(-1);
    await history.append('c1', many(2));
    const short = calls.at(-1);
    await history.append('c1', many(5000));
    calls.length = 0;

    await history.append('c1', [user('at 5004')]);
    await history.load('c1');

    // The last page's key is read, not taken from the record's count (issue 27, fact 4).
    expect(first).toEqual(['get', 'openKeyCursor', 'put', 'put']); // record, last key; new page 0, record
    expect(short).toEqual(['get', 'openKeyCursor', 'get', 'put', 'put']); // record, last key, page 0; page 0, record
    expect(calls).toEqual([
      ['get', 'openKeyCursor', 'get', 'put', 'put'],
      ['get', 'getAll', 'openKeyCursor', 'getAll', 'get', 'get'], // record, pages, last key, images, forks, summaries (none)
    ]);
    expect((await history.load('c1'))?.messages).toHaveLength(5004);
    history.close();
    database.close();
  });

  test('batches of any size across page boundaries load back in order', async () => {
    const history = indexedDBHistory(fakeBrowser());
    const all = Array.from({ length: 300 }, (_, index) =>
      index % 7 === 0 ? assistant('x'.repeat(20_000 + index)) : user(`m${index}`),
    );
    let offset = 0;
    for (const size of [1, 31, 2, 64, 33, 1, 100, 68]) {
      await history.append('c1', all.slice(offset, offset + size));
      offset += size;
    }

    expect((await history.load('c1'))?.messages).toEqual(all);
    expect((await history.list())[0]?.messageCount).toBe(300);
    history.close();
  });

  test('two instances appending concurrently keep every message, in order per writer', async () => {
    const browser = fakeBrowser();
    const tabA = indexedDBHistory(browser);
    const tabB = indexedDBHistory(browser);

    await Promise.all(
      Array.from({ length: 20 }, (_, index) => [
        tabA.append('shared', [user(`A${index}`)]),
        tabB.append('shared', [assistant(`B${index}`)]),
      ]).flat(),
    );

    const messages = (await tabA.load('shared'))?.messages ?? [];
    const contents = (prefix: string) =>
      messages
        .map((message) => (typeof message.content === 'string' ? message.content : ''))
        .filter((text) => text.startsWith(prefix));
    expect(messages).toHaveLength(40);
    expect(contents('A')).toEqual(Array.from({ length: 20 }, (_, index) => `A${index}`));
    expect(contents('B')).toEqual(Array.from({ length: 20 }, (_, index) => `B${index}`));
    expect((await tabB.list())[0]?.messageCount).toBe(40);
    tabA.close();
    tabB.close();
  });

  test("subscribe hears another instance's writes through BroadcastChannel", async () => {
    const browser = fakeBrowser();
    const tabA = indexedDBHistory(browser);
    const tabB = indexedDBHistory(browser);
    const heard: HistoryChange[] = [];
    const unrelated = indexedDBHistory({ ...fakeBrowser() });
    unrelated.subscribe((change) => heard.push({ ...change, conversationId: 'WRONG DATABASE' }));
    const received = new Promise<void>((resolve) =>
      tabB.subscribe((change) => {
        heard.push(change);
        if (change.kind === 'rename') resolve();
      }),
    );

    await tabA.append('c1', [user('hi')]);
    await tabA.rename('c1', 'Renamed');
    await received;

    expect(heard).toEqual([
      { conversationId: 'c1', kind: 'append', remote: true },
      { conversationId: 'c1', kind: 'rename', remote: true },
    ]);
    tabA.close();
    tabB.close();
    unrelated.close();
  });

  test('a quota failure rejects with STORAGE_FAILED, keeps stored data, and catches up later', async () => {
    const browser = fakeBrowser();
    const database = openDatabase({ ...browser, storeName: 'history' });
    const { store, state } = quotaStore(database.store);
    const history = indexedDBHistory({ ...browser, store });
    await history.append('c1', [user('stored'), callsTools('a')]);
    state.full = true;

    const first = await rejection(history.append('c1', [toolResult('a'), assistant('lost?')]));
    const second = await rejection(history.append('c1', [user('still going')]));
    const inMemory = await history.load('c1');
    const reloaded = indexedDBHistory(browser);
    const onDisk = await reloaded.load('c1');
    state.full = false;
    await history.append('c1', [assistant('space again')]);
    const recovered = await reloaded.load('c1');

    expect(isAgentError(first, 'STORAGE_FAILED')).toBe(true);
    expect((first as Error).message).toContain(
      'History storage failed during append for conversation "c1": QuotaExceededError',
    );
    expect((second as { context?: unknown }).context).toMatchObject({ unsavedMessages: 3 });
    expect(inMemory?.messages).toEqual([
      user('stored'),
      callsTools('a'),
      toolResult('a'),
      assistant('lost?'),
      user('still going'),
    ]);
    expect(onDisk?.messages).toEqual([
      user('stored'),
      callsTools('a'),
      toolResult(
        'a',
        'Error: the tool call was interrupted (the page was closed or reloaded before it finished).',
      ),
    ]);
    expect(recovered?.messages).toEqual([...(inMemory?.messages ?? []), assistant('space again')]);
    expect(state.failures).toBe(2);
    history.close();
    reloaded.close();
    database.close();
  });

  test('without IndexedDB every operation rejects with STORAGE_FAILED', async () => {
    const options: IndexedDBHistoryOptions = { IDBKeyRange, dbName: 'none' };
    const history = indexedDBHistory(options); // Node has no global indexedDB

    const errors = [
      await rejection(history.append('c1', [user('hi')])),
      await rejection(history.load('c1')),
      await rejection(history.list()),
      await rejection(history.rename('c1', 'x')),
    ];

    expect(errors.map((error) => isAgentError(error, 'STORAGE_FAILED'))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect((errors[0] as Error).message).toBe(
      'History storage failed during append for conversation "c1": Error: IndexedDB is not available in this environment. 1 message(s) are kept in memory and will be written with the next successful save.',
    );
    history.close();
  });

  test('a closed store refuses further operations with STORAGE_FAILED', async () => {
    const history = indexedDBHistory(fakeBrowser());
    await history.append('c1', [user('hi')]);
    history.close();

    const error = await rejection(history.list());

    expect(isAgentError(error, 'STORAGE_FAILED')).toBe(true);
    expect((error as Error).message).toContain('was closed');
  });

  test('a damaged page or message is left out, reported once, and the rest loads', async () => {
    const browser = fakeBrowser();
    const database = openDatabase({ ...browser, storeName: 'history' });
    const history = indexedDBHistory({ ...browser, store: database.store });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await history.append('good', [user('fine')]);
    await history.append('bad', [user('first'), assistant('one')]);
    await history.append('bad', pageOfMessages(40)); // fills page 0, starts page 1
    await database.store('readwrite', (objectStore) => {
      objectStore.put([{ role: 'user', content: 42 }, assistant('kept')], ['m', 'bad', 1]);
    });

    const loaded = await history.load('bad');
    const again = await history.load('bad');
    const exported = JSON.parse(await history.exportConversation('bad')) as { messages: unknown[] };
    const list = await history.list();

    const stored = [user('first'), assistant('one'), ...pageOfMessages(40)];
    expect(loaded?.messages).toEqual([...stored.slice(0, 32), assistant('kept')]);
    expect(loaded?.damage).toEqual({
      unreadableMessages: 1,
      recordRepaired: true,
      branchesLost: false,
    });
    expect(again?.messages).toEqual(loaded?.messages);
    expect(again?.damage).toEqual({
      unreadableMessages: 1,
      recordRepaired: false,
      branchesLost: false,
    });
    expect(exported.messages).toHaveLength(33);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('"bad" is damaged: 1 unreadable');
    expect(list.map((summary) => summary.id).sort()).toEqual(['bad', 'good']);
    warn.mockRestore();
    history.close();
    database.close();
  });

  test('after an unreadable last page, new messages go to a new page and load back', async () => {
    const browser = fakeBrowser();
    const database = openDatabase({ ...browser, storeName: 'history' });
    const history = indexedDBHistory({ ...browser, store: database.store });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await history.append('c1', [user('one'), assistant('two')]);
    await database.store('readwrite', (objectStore) => {
      objectStore.put('not a page', ['m', 'c1', 0]);
    });

    await history.append('c1', [user('three')]);
    const keys = await database.store('readonly', (objectStore) =>
      promisifyRequest(objectStore.getAllKeys()),
    );

    expect((await history.load('c1'))?.messages).toEqual([user('three')]);
    expect(keys).toContainEqual(['m', 'c1', 0]); // the damaged page is kept as it was
    expect(keys).toContainEqual(['m', 'c1', 1]);
    warn.mockRestore();
    history.close();
    database.close();
  });

  test('a damaged conversation record is rebuilt from its pages, and saving resumes', async () => {
    const browser = fakeBrowser();
    const database = openDatabase({ ...browser, storeName: 'history' });
    const history = indexedDBHistory({ ...browser, store: database.store });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await history.append('c1', [user('hello'), ...pageOfMessages(40)]);
    await database.store('readwrite', (objectStore) => {
      objectStore.put({ id: 'c1', title: 'Kept', createdAt: 'x' }, ['c', 'c1']);
    });

    const loaded = await history.load('c1');
    await history.append('c1', [user('after')]);
    await history.rename('c1', 'Renamed');
    const reloaded = indexedDBHistory(browser);
    const after = await reloaded.load('c1');
    const list = await reloaded.list();

    expect(loaded?.messages).toEqual([user('hello'), ...pageOfMessages(40)]);
    expect(after?.messages).toEqual([user('hello'), ...pageOfMessages(40), user('after')]);
    expect(list).toEqual([
      expect.objectContaining({ id: 'c1', title: 'Renamed', messageCount: 42 }),
    ]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('record was rebuilt');
    warn.mockRestore();
    reloaded.close();
    history.close();
    database.close();
  });

  test('property: whatever records are damaged, every valid message loads and appends stay readable', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const junk = fc.oneof(
      fc.constant(undefined),
      fc.integer(),
      fc.string(),
      fc.constant(null),
      fc.array(fc.anything(), { maxLength: 3 }),
      fc.constant([undefined, { role: 'user', content: 0 }]),
      fc.record({ role: fc.constantFrom('user', 'tool', 'bogus'), content: fc.anything() }),
      fc.dictionary(fc.string(), fc.anything()),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }),
        fc.array(fc.tuple(fc.nat(), fc.boolean(), junk), { maxLength: 6 }),
        async (length, damages) => {
          const browser = fakeBrowser();
          const database = openDatabase({ ...browser, storeName: 'history' });
          const history = indexedDBHistory({ ...browser, store: database.store });
          const messages = pageOfMessages(length);
          await history.append('c', messages);
          const pages = (await database.store('readonly', (objectStore) =>
            promisifyRequest(objectStore.getAll(IDBKeyRange.bound(['m', 'c'], ['m', 'c', []]))),
          )) as Message[][];
          // Damage whole pages, single messages or the record: what survives is known.
          const current: unknown[][] = pages.map((page) => [...page]);
          const alive = pages.map((page) => page.map(() => true));
          const lost = pages.map(() => false);
          await database.store('readwrite', (objectStore) => {
            for (const [at, wholePage, value] of damages) {
              const page = at % (pages.length + 1);
              const stored = current[page];
              if (!stored) {
                objectStore.put(value ?? 'junk', ['c', 'c']);
              } else if (wholePage || stored.length === 0) {
                lost[page] = true;
                objectStore.put(value ?? 'junk', ['m', 'c', page]);
              } else if (!lost[page]) {
                const index = at % stored.length;
                stored[index] = { role: 'user', content: 0 };
                (alive[page] ?? [])[index] = false;
                objectStore.put(stored, ['m', 'c', page]);
              }
            }
          });
          const expected = pages.flatMap((page, index) =>
            lost[index] ? [] : page.filter((_, at) => alive[index]?.[at]),
          );

          const loaded = (await history.load('c'))?.messages ?? [];
          await history.append('c', [user('new')]);
          const reloaded = indexedDBHistory(browser);
          const after = (await reloaded.load('c'))?.messages ?? [];
          reloaded.close();
          history.close();
          database.close();

          expect(loaded).toEqual(expected);
          expect(after).toEqual([...expected, user('new')]);
        },
      ),
      { numRuns: 60 },
    );
    warn.mockRestore();
  });
});

/** `count` user/assistant messages with no tool calls, so none is dropped as an orphan. */
function pageOfMessages(count: number): Message[] {
  return Array.from({ length: count }, (_, index) =>
    index % 2 === 0 ? user(`u${index}`) : assistant(`a${index}`),
  );
}
