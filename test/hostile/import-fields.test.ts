import { describe, expect, it } from 'vitest';
import { isAgentError, memoryHistory } from '../../src/index.js';

// An imported conversation file is untrusted input: each field crafted on its own must be refused
// (VALIDATION_FAILED, nothing stored) or read as inert data.

const valid = {
  format: 'open-agent-conversation',
  version: 2,
  id: 'shared',
  title: 'A shared conversation',
  createdAt: 1,
  updatedAt: 2,
  messages: [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello' },
  ],
};

const refused: [string, Record<string, unknown>][] = [
  ['format', { format: 'something-else' }],
  ['version', { version: 99 }],
  ['id (empty)', { id: '' }],
  ['id (not a string)', { id: { toString: 'x' } }],
  ['id (a megabyte)', { id: 'x'.repeat(1_000_000) }],
  ['title (not a string)', { title: ['a'] }],
  ['createdAt (negative)', { createdAt: -1 }],
  ['updatedAt (a string)', { updatedAt: 'yesterday' }],
  ['messages (not a list)', { messages: { 0: { role: 'user', content: 'x' } } }],
  ['messages (a role that does not exist)', { messages: [{ role: 'root', content: 'x' }] }],
  [
    'messages (tool call arguments not a string)',
    {
      messages: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }],
        },
      ],
    },
  ],
  ['pending (not an object)', { pending: 'run everything' }],
  ['forks (not forks)', { forks: [{ at: -5, branches: 'x' }] }],
];

describe('a crafted import file, field by field', () => {
  for (const [field, change] of refused) {
    it(`refuses a bad ${field} and stores nothing`, async () => {
      const history = memoryHistory();
      const error = await history
        .importConversation(JSON.stringify({ ...valid, ...change }))
        .catch((caught: unknown) => caught);
      expect(isAgentError(error, 'VALIDATION_FAILED')).toBe(true);
      expect(await history.list()).toEqual([]);
    });
  }

  it('reads unknown fields and a __proto__ key as inert data: nothing polluted, nothing kept', async () => {
    const history = memoryHistory();
    const text = JSON.stringify({ ...valid, extra: { run: 'send_money' } }).replace(
      '"format"',
      '"__proto__":{"polluted":true},"format"',
    );
    const id = await history.importConversation(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const file = JSON.parse(await history.exportConversation(id)) as Record<string, unknown>;
    expect(Object.keys(file).sort()).toEqual([
      'createdAt',
      'format',
      'id',
      'messages',
      'title',
      'updatedAt',
      'version',
    ]);
  });

  it('cuts a megabyte title to 1,000 characters', async () => {
    const history = memoryHistory();
    const id = await history.importConversation(
      JSON.stringify({ ...valid, title: 't'.repeat(1_000_000) }),
    );
    expect((await history.load(id))?.title).toHaveLength(1000);
  });

  it('keeps only the known fields of each message (no extra keys reach a request)', async () => {
    const history = memoryHistory();
    const id = await history.importConversation(
      JSON.stringify({
        ...valid,
        messages: [{ role: 'user', content: 'Hi', tool_choice: 'required', extra: 1 }],
      }),
    );
    expect((await history.load(id))?.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });
});
