import { describe, expect, it } from 'vitest';
import { STREAM_DONE, chunk, collect } from './collect.js';

const callWith = (id: string, args: unknown) =>
  chunk({
    tool_calls: [{ index: 0, id, type: 'function', function: { name: 'lookup', arguments: args } }],
  });

describe('aggregateStream: arguments that are not a JSON object', () => {
  it.each([
    ['invalid JSON', '{"q": oops}', 'arguments that are not valid JSON'],
    ['an array', '[1, 2]', 'arguments that are not a JSON object (got an array)'],
    ['a string', '"query"', 'arguments that are not a JSON object (got a string)'],
    ['a number', '42', 'arguments that are not a JSON object (got a number)'],
    ['null', 'null', 'arguments that are not a JSON object (got null)'],
  ])(
    'reports %s as INVALID_TOOL_INPUT with rawData, not as a call',
    async (_kind, raw, message) => {
      const { events, turn } = await collect([
        callWith('call_9', raw),
        chunk({}, 'tool_calls'),
        STREAM_DONE,
      ]);

      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: 'tool_use_error',
        code: 'INVALID_TOOL_INPUT',
        rawData: raw,
        toolUseId: 'call_9',
        name: 'lookup',
      });
      expect(events[0]).toHaveProperty(
        'error',
        expect.stringContaining(`Tool "lookup" received ${message}`),
      );
      expect(turn?.toolCalls).toEqual([]);
      expect(turn?.invalidToolCalls).toEqual(events);
      expect(turn?.finishReason).toBe('tool_calls');
    },
  );

  it('keeps valid and invalid calls in call order', async () => {
    const { events } = await collect([
      chunk({
        tool_calls: [
          { index: 0, id: 'a', function: { name: 'lookup', arguments: '{"q":1}' } },
          { index: 1, id: 'b', function: { name: 'lookup', arguments: '[]' } },
          { index: 2, id: 'c', function: { name: 'lookup', arguments: '{"q":3}' } },
        ],
      }),
      chunk({}, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(
      events.map((event) => [
        event.type,
        'toolUseId' in event ? event.toolUseId : 'id' in event ? event.id : '',
      ]),
    ).toEqual([
      ['tool_use', 'a'],
      ['tool_use_error', 'b'],
      ['tool_use', 'c'],
    ]);
  });

  it('reports a call that never got a name', async () => {
    const { events } = await collect([
      chunk({ tool_calls: [{ index: 0, id: 'n', function: { arguments: '{}' } }] }, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([
      {
        type: 'tool_use_error',
        code: 'INVALID_TOOL_INPUT',
        error: 'Tool call "n" arrived without a function name.',
        rawData: '{}',
        toolUseId: 'n',
        name: '',
      },
    ]);
  });
});
