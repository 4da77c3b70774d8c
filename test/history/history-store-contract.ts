import { describe, expect, test } from 'vitest';
import { isAgentError } from '../../src/errors/agent-error.js';
import type { HistoryChange, HistoryStore } from '../../src/history/history-store.js';
import { INTERRUPTED_TOOL_RESULT } from '../../src/history/repair-dangling-tool-calls.js';
import type { Message } from '../../src/types/message.js';
import { assistant, callsTools, toolResult, user } from './fixtures.js';

/** Makes a fresh, empty store whose clock is `now`. */
export type StoreFactory = (now: () => number) => HistoryStore;

/** Resolves to the error `promise` rejects with; fails the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

/**
 * The behaviour every HistoryStore shares, run against memoryHistory, indexedDBHistory on
 * fake-indexeddb (Node) and indexedDBHistory on Chromium's IndexedDB.
 */
export function describeHistoryStore(name: string, makeStore: StoreFactory): void {
  describe(`${name} (HistoryStore contract)`, () => {
    const open = () => {
      let time = 1_000;
      return makeStore(() => time++);
    };

    test('append then load returns the messages in order, titled from the first user message', async () => {
      const history = open();
      await history.append('c1', [user('  What is\nthe   weather in Paris?  ')]);
      await history.append('c1', [callsTools('a'), toolResult('a'), assistant('Sunny.')]);

      const conversation = await history.load('c1');

      expect(conversation?.messages).toEqual([
        user('  What is\nthe   weather in Paris?  '),
        callsTools('a'),
        toolResult('a'),
        assistant('Sunny.'),
      ]);
      expect(conversation?.title).toBe('What is the weather in Paris?');
      expect(conversation?.id).toBe('c1');
      expect(conversation?.updatedAt).toBeGreaterThan(conversation?.createdAt ?? Infinity);
      history.close?.();
    });

    test('load of an unknown conversation is undefined; an empty append creates nothing', async () => {
      const history = open();
      await history.append('empty', []);
      expect(await history.load('nope')).toBeUndefined();
      expect(await history.load('empty')).toBeUndefined();
      expect(await history.list()).toEqual([]);
      history.close?.();
    });

    test('stores a copy: changing the appended objects later changes nothing stored', async () => {
      const history = open();
      const message = { role: 'user', content: 'original' } satisfies Message;
      const append = history.append('c1', [message]);
      message.content = 'changed';
      await append;
      expect((await history.load('c1'))?.messages).toEqual([user('original')]);
      history.close?.();
    });

    test('an invalid message is refused with VALIDATION_FAILED and nothing is stored', async () => {
      const history = open();
      await history.append('c1', [user('hi')]);
      const bad = [
        assistant('ok'),
        { role: 'tool', content: 'no call id' },
      ] as unknown as Message[];

      const error = await rejection(history.append('c1', bad));

      expect(isAgentError(error, 'VALIDATION_FAILED')).toBe(true);
      expect((error as Error).message).toContain('messages.1.tool_call_id');
      expect((await history.load('c1'))?.messages).toEqual([user('hi')]);
      history.close?.();
    });

    test('load gives a dangling tool call an interrupted result without storing it', async () => {
      const history = open();
      await history.append('c1', [user('go'), callsTools('a', 'b', 'c'), toolResult('b')]);

      const conversation = await history.load('c1');

      expect(conversation?.messages).toEqual([
        user('go'),
        callsTools('a', 'b', 'c'),
        toolResult('b'),
        toolResult('a', INTERRUPTED_TOOL_RESULT),
        toolResult('c', INTERRUPTED_TOOL_RESULT),
      ]);
      expect((await history.list())[0]?.messageCount).toBe(3);
      history.close?.();
    });

    test('a paused run is stored, keeps its awaited calls unrepaired, and can be cleared', async () => {
      const history = open();
      const pending = {
        version: 1,
        pending: [{ toolUseId: 'a', name: 'tool_a', input: {}, reason: 'approval' }],
      };
      await history.append('c1', [user('delete it'), callsTools('a')]);
      await history.setPending('c1', pending);

      const paused = await history.load('c1');
      await history.setPending('c1', undefined);
      const cleared = await history.load('c1');

      expect(paused?.pending).toEqual(pending);
      expect(paused?.messages).toEqual([user('delete it'), callsTools('a')]);
      expect(cleared?.pending).toBeUndefined();
      expect(cleared?.messages.at(-1)).toEqual(toolResult('a', INTERRUPTED_TOOL_RESULT));
      history.close?.();
    });

    test('a paused state that is not a JSON object is refused', async () => {
      const history = open();
      const error = await rejection(history.setPending('c1', [1, 2] as unknown as object as never));
      expect(isAgentError(error, 'VALIDATION_FAILED')).toBe(true);
      expect(await history.load('c1')).toBeUndefined();
      history.close?.();
    });

    test('list gives id, title, times and message count, newest first', async () => {
      const history = open();
      await history.append('old', [user('first conversation')]);
      await history.append('new', [user('second'), assistant('reply')]);
      await history.append('untitled', [assistant('hello')]);
      await history.append('old', [assistant('touched last')]);

      const list = await history.list();

      expect(list.map(({ id, title, messageCount }) => ({ id, title, messageCount }))).toEqual([
        { id: 'old', title: 'first conversation', messageCount: 2 },
        { id: 'untitled', title: 'New conversation', messageCount: 1 },
        { id: 'new', title: 'second', messageCount: 2 },
      ]);
      expect(list[0]?.createdAt).toBeLessThan(list[0]?.updatedAt ?? 0);
      history.close?.();
    });

    test('rename sets the title for good; unknown ids and empty titles are refused', async () => {
      const history = open();
      await history.append('c1', [assistant('greeting')]);
      await history.rename('c1', '  Trip   planning ');
      await history.append('c1', [user('would have been the title')]);

      const unknown = await rejection(history.rename('nope', 'x'));
      const empty = await rejection(history.rename('c1', '   '));

      expect((await history.load('c1'))?.title).toBe('Trip planning');
      expect((await history.list())[0]?.title).toBe('Trip planning');
      expect(isAgentError(unknown, 'VALIDATION_FAILED')).toBe(true);
      expect((unknown as Error).message).toBe('Conversation "nope" does not exist.');
      expect(isAgentError(empty, 'VALIDATION_FAILED')).toBe(true);
      history.close?.();
    });

    test('delete removes one conversation and none whose id shares its prefix', async () => {
      const history = open();
      for (const id of ['a', 'ab', 'a\u0000', 'b']) await history.append(id, [user(id)]);

      await history.delete('a');
      await history.delete('never existed');

      expect(await history.load('a')).toBeUndefined();
      expect((await history.list()).map((summary) => summary.id).sort()).toEqual([
        'a\u0000',
        'ab',
        'b',
      ]);
      expect((await history.load('ab'))?.messages).toEqual([user('ab')]);
      expect((await history.load('a\u0000'))?.messages).toEqual([user('a\u0000')]);
      history.close?.();
    });

    test('export then import round-trips a conversation under a fresh id when its id is taken', async () => {
      const history = open();
      await history.append('c1', [
        user('hello'),
        callsTools('a'),
        toolResult('a'),
        assistant('done'),
      ]);
      await history.setPending('c1', { note: 'kept' });
      await history.rename('c1', 'Exported');
      const json = await history.exportConversation('c1');

      const copyId = await history.importConversation(json);
      const namedId = await history.importConversation(json, { id: 'named' });

      const original = await history.load('c1');
      const copy = await history.load(copyId);
      expect(JSON.parse(json)).toMatchObject({
        format: 'open-agent-conversation',
        version: 2,
        id: 'c1',
      });
      expect(copyId).not.toBe('c1');
      expect(namedId).toBe('named');
      expect({ ...copy, id: 'c1' }).toEqual(original);
      expect((await history.load('named'))?.messages).toEqual(original?.messages);
      history.close?.();
    });

    test('import keeps the file id when it is free and replaces a conversation named by options.id', async () => {
      const source = open();
      await source.append('shared', [user('from the file')]);
      const json = await source.exportConversation('shared');
      source.close?.();
      const history = open();
      await history.append('target', [user('old 1'), assistant('old 2'), user('old 3')]);

      expect(await history.importConversation(json)).toBe('shared');
      expect(await history.importConversation(json, { id: 'target' })).toBe('target');

      expect((await history.load('target'))?.messages).toEqual([user('from the file')]);
      expect((await history.list()).find((summary) => summary.id === 'target')?.messageCount).toBe(
        1,
      );
      history.close?.();
    });

    test.each([
      ['not JSON', '{"format":', 'the file is not JSON'],
      ['not an object', '[1,2]', 'the file is not a JSON object'],
      ['another format', '{"format":"chatgpt","version":1}', '"format" is "chatgpt"'],
      // The two files of the walkthrough in issue 15, once told "the file is not a JSON object".
      [
        'an unknown format alone',
        '{"format":"nope"}',
        '"format" is "nope", expected "open-agent-conversation"',
      ],
      ['no version', '{"format":"open-agent-conversation"}', '"version" is missing'],
      [
        'a newer version',
        '{"format":"open-agent-conversation","version":3}',
        '"version" is 3; this open-agent reads versions 1 to 2',
      ],
      [
        'a bad message',
        JSON.stringify({
          format: 'open-agent-conversation',
          version: 1,
          id: 'x',
          title: 't',
          createdAt: 1,
          updatedAt: 2,
          messages: [
            { role: 'user', content: 'ok' },
            { role: 'robot', content: 'no' },
          ],
        }),
        'messages.1.role',
      ],
      [
        'a paused state that is not an object',
        JSON.stringify({
          format: 'open-agent-conversation',
          version: 1,
          id: 'x',
          title: 't',
          createdAt: 1,
          updatedAt: 2,
          messages: [],
          pending: 'waiting',
        }),
        'pending',
      ],
    ])(
      'a malformed import (%s) is refused with a clear error and changes nothing',
      async (_, json, reason) => {
        const history = open();
        await history.append('x', [user('keep me')]);
        const before = await history.list();

        const error = await rejection(history.importConversation(json, { id: 'x' }));

        expect(isAgentError(error, 'VALIDATION_FAILED')).toBe(true);
        expect((error as Error).message).toContain('Cannot import the conversation: ');
        expect((error as Error).message).toContain(reason);
        expect(await history.list()).toEqual(before);
        expect((await history.load('x'))?.messages).toEqual([user('keep me')]);
        history.close?.();
      },
    );

    test('a version 1 file (no forks) still imports', async () => {
      const history = open();
      const v1 = {
        format: 'open-agent-conversation',
        version: 1,
        id: 'old',
        title: 'Old',
        createdAt: 1,
        updatedAt: 2,
        messages: [user('hi'), assistant('hello')],
      };
      const id = await history.importConversation(JSON.stringify(v1));
      const loaded = await history.load(id);
      expect(loaded?.messages).toEqual(v1.messages);
      expect(loaded?.forks).toBeUndefined();
      expect(JSON.parse(await history.exportConversation(id))).toMatchObject({ version: 2 });
    });

    test('forks (version 2) survive import, load, export and delete', async () => {
      const history = open();
      const forks = [
        {
          index: 1,
          branches: [
            {
              messages: [assistant('first answer'), user('then'), assistant('more')],
              forks: [{ index: 1, branches: [null, { messages: [user('or')], forks: [] }] }],
            },
            null,
          ],
        },
      ];
      const file = {
        format: 'open-agent-conversation',
        version: 2,
        id: 'f',
        title: 'Forked',
        createdAt: 1,
        updatedAt: 2,
        messages: [user('hi'), assistant('second answer')],
        forks,
      };
      const id = await history.importConversation(JSON.stringify(file));
      expect((await history.load(id))?.forks).toEqual(forks);
      const again = await history.importConversation(await history.exportConversation(id), {
        id: 'g',
      });
      expect((await history.load(again))?.forks).toEqual(forks);
      await history.delete('g');
      await history.importConversation(JSON.stringify({ ...file, forks: undefined }), { id: 'g' });
      expect((await history.load('g'))?.forks).toBeUndefined();
    });

    test.each([
      ['two active versions', [{ index: 1, branches: [null, null] }], 'forks.0.branches'],
      [
        'a fork past the messages',
        [{ index: 9, branches: [{ messages: [], forks: [] }, null] }],
        'forks.0.index',
      ],
      [
        'a bad message in a branch',
        [{ index: 1, branches: [{ messages: [{ role: 'x' }], forks: [] }, null] }],
        'forks.0.branches.0.messages.0',
      ],
    ])('a file with bad forks (%s) is refused and changes nothing', async (_, forks, where) => {
      const history = open();
      const file = {
        format: 'open-agent-conversation',
        version: 2,
        id: 'b',
        title: 'B',
        createdAt: 1,
        updatedAt: 2,
        messages: [user('hi'), assistant('yo')],
        forks,
      };
      const error = await rejection(history.importConversation(JSON.stringify(file)));
      expect(isAgentError(error, 'VALIDATION_FAILED')).toBe(true);
      expect(String((error as Error).message)).toContain(where);
      expect(await history.list()).toEqual([]);
    });

    test('exporting an unknown conversation is refused', async () => {
      const history = open();
      const error = await rejection(history.exportConversation('nope'));
      expect(isAgentError(error, 'VALIDATION_FAILED')).toBe(true);
      history.close?.();
    });

    test('subscribe reports each change of this instance in order, until unsubscribed', async () => {
      const history = open();
      const changes: HistoryChange[] = [];
      const unsubscribe = history.subscribe((change) => changes.push(change));

      await history.append('c1', [user('hi')]);
      await history.setPending('c1', { waiting: true });
      await history.rename('c1', 'Renamed');
      const imported = await history.importConversation(await history.exportConversation('c1'));
      await history.delete('c1');
      await history.delete('c1');
      unsubscribe();
      await history.append('c2', [user('unheard')]);

      expect(changes).toEqual([
        { conversationId: 'c1', kind: 'append', remote: false },
        { conversationId: 'c1', kind: 'pending', remote: false },
        { conversationId: 'c1', kind: 'rename', remote: false },
        { conversationId: imported, kind: 'import', remote: false },
        { conversationId: 'c1', kind: 'delete', remote: false },
      ]);
      history.close?.();
    });

    test('summaries are stored beside the messages, exported, imported and deleted with them', async () => {
      const history = open();
      await history.append('c1', [user('Hello'), assistant('Hi.'), user('More')]);
      const summary = {
        text: 'They said hello.',
        covers: 2,
        fingerprint: '2-abc-def',
        createdAt: 5,
      };
      await history.addSummary?.('c1', summary);
      await history.addSummary?.('c1', { ...summary, covers: 3, model: 'small' });
      const loaded = await history.load('c1');
      expect(loaded?.summaries).toEqual([summary, { ...summary, covers: 3, model: 'small' }]);
      expect(loaded?.messages).toHaveLength(3); // the originals stay
      const file = await history.exportConversation('c1');
      const copy = await history.importConversation(file, { id: 'c2' });
      expect((await history.load(copy))?.summaries).toEqual(loaded?.summaries);
      expect(
        await rejection(
          history.addSummary?.('c1', { ...summary, covers: 0 }) ??
            Promise.reject(new Error('no addSummary')),
        ),
      ).toMatchObject({ code: 'VALIDATION_FAILED' });
      await history.delete('c1');
      await history.append('c1', [user('Again')]);
      expect((await history.load('c1'))?.summaries).toBeUndefined();
    });
  });
}
