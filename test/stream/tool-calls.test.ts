import { describe, expect, it } from 'vitest';
import type { ToolUseBlock } from '../../src/types/events.js';
import { STREAM_DONE, chunk, collect, text } from './collect.js';

const use = (id: string, name: string, input: Record<string, unknown>): ToolUseBlock => ({
  type: 'tool_use',
  id,
  name,
  input,
});
const ids = (...values: string[]) => {
  const queue = [...values];
  return () => queue.shift() ?? 'unexpected';
};

describe('aggregateStream: tool calls', () => {
  it('reads a call that arrives whole in one chunk (Ollama, WebLLM, text-generation-webui)', async () => {
    const { events, turn } = await collect([
      chunk({
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            index: 0,
          },
        ],
      }),
      chunk({}, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([use('call_1', 'get_weather', { city: 'Oslo' })]);
    expect(turn).toMatchObject({
      toolCalls: [use('call_1', 'get_weather', { city: 'Oslo' })],
      invalidToolCalls: [],
      finishReason: 'tool_calls',
    });
  });

  it('joins fragments (llama.cpp, vLLM, LM Studio), also when the first delta already carries `{`', async () => {
    const { events } = await collect([
      chunk({
        tool_calls: [
          { index: 0, id: 'c1', type: 'function', function: { name: 'add', arguments: '{' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"a": 1,' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ' "b": 2}' } }] }),
      chunk({}, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([use('c1', 'add', { a: 1, b: 2 })]);
  });

  it('reads a name-only first delta without an `arguments` key, and arguments never sent as {}', async () => {
    const { events } = await collect([
      chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'now' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'c2', type: 'function', function: { name: 'add' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"a":1}' } }] }),
      chunk({}, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([use('c1', 'now', {}), use('c2', 'add', { a: 1 })]);
  });

  it('uses the position in the delta array when `index` is missing, and reads a string index "0"', async () => {
    const { events } = await collect([
      chunk({
        tool_calls: [
          { id: 'a', function: { name: 'one', arguments: '{}' } },
          { id: 'b', function: { name: 'two', arguments: '{"x":' } },
        ],
      }),
      chunk({ tool_calls: [{ index: '1', function: { arguments: '2}' } }] }),
      chunk({ tool_calls: [{ index: '0', function: { arguments: '' } }] }),
      chunk({}, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([use('a', 'one', {}), use('b', 'two', { x: 2 })]);
  });

  it('reads an index that is not a whole number ≥ 0 (or a blank string) as the position in the delta array', async () => {
    const { events } = await collect([
      chunk({
        tool_calls: [
          { index: -1, id: 'a', function: { name: 'one', arguments: '{"x":' } },
          { index: 1.5, id: 'b', function: { name: 'two', arguments: '{"y":' } },
        ],
      }),
      chunk({
        tool_calls: [
          { index: ' ', function: { arguments: '1}' } },
          { index: 'one', function: { arguments: '2}' } },
        ],
      }),
      chunk({}, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([use('a', 'one', { x: 1 }), use('b', 'two', { y: 2 })]);
  });

  it('starts a new call when the same index comes with a different id (Ollama sent every parallel call as index 0)', async () => {
    const { events } = await collect([
      chunk({
        tool_calls: [
          {
            index: 0,
            id: 'call_a',
            function: { name: 'get_weather', arguments: { city: 'Oslo' } },
          },
        ],
      }),
      chunk({
        tool_calls: [
          {
            index: 0,
            id: 'call_b',
            function: { name: 'get_weather', arguments: { city: 'Rome' } },
          },
        ],
      }),
      chunk({ content: '' }, 'stop'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([
      use('call_a', 'get_weather', { city: 'Oslo' }),
      use('call_b', 'get_weather', { city: 'Rome' }),
    ]);
  });

  it('generates an id for a call without one (WebLLM), 9 alphanumeric characters by default', async () => {
    const { events } = await collect([
      chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'tool_use', name: 'f', input: {} });
    expect((events[0] as ToolUseBlock).id).toMatch(/^[a-zA-Z0-9]{9}$/);
  });

  it('treats "" and null ids, names and types as not sent, and reads calls without `type`', async () => {
    const { events } = await collect(
      [
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: 'weather', arguments: '' },
            },
          ],
        }),
        chunk({
          tool_calls: [
            {
              index: 0,
              id: '',
              type: 'function',
              function: { name: '', arguments: '{"location":' },
            },
          ],
        }),
        chunk({
          tool_calls: [
            { index: 0, id: null, type: null, function: { name: null, arguments: ' "SF"}' } },
          ],
        }),
        chunk({
          tool_calls: [{ index: 1, id: null, function: { name: 'second', arguments: null } }],
        }),
        chunk({ tool_calls: [{ index: 1, id: '', function: { name: '', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
        STREAM_DONE,
      ],
      { generateId: ids('gen000001') },
    );

    expect(events).toEqual([
      use('call_1', 'weather', { location: 'SF' }),
      use('gen000001', 'second', {}),
    ]);
  });

  it('reads several calls in one delta and keeps them in call order after the text', async () => {
    const { events, turn } = await collect([
      chunk({ content: 'Checking.' }),
      chunk({
        tool_calls: [
          { index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{"n":1}' } },
          { index: 1, id: 'b', type: 'function', function: { name: 'g', arguments: '{"n":2}' } },
        ],
      }),
      chunk({}, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([text('Checking.'), use('a', 'f', { n: 1 }), use('b', 'g', { n: 2 })]);
    expect(turn?.text).toBe('Checking.');
  });

  it('reads a call whose index starts at 1 (Anthropic compatibility) as the only call', async () => {
    const { events } = await collect([
      chunk({
        tool_calls: [
          {
            index: 1,
            id: 'toolu_1',
            type: 'function',
            function: { name: 'read_file', arguments: '' },
          },
        ],
      }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"path":' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '"a.txt"}' } }] }),
      chunk({}, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([use('toolu_1', 'read_file', { path: 'a.txt' })]);
  });

  it('uses arguments that are already an object (some servers send them so)', async () => {
    const { events } = await collect([
      chunk(
        {
          tool_calls: [
            { index: 0, id: 'c', function: { name: 'f', arguments: { deep: { list: [1, 2] } } } },
          ],
        },
        'tool_calls',
      ),
      STREAM_DONE,
    ]);

    expect(events).toEqual([use('c', 'f', { deep: { list: [1, 2] } })]);
  });

  it('ignores tool_calls: null and malformed entries', async () => {
    const { events } = await collect([
      chunk({ content: null, tool_calls: null }),
      chunk({ tool_calls: [null, 'x', 3] }),
      chunk({ tool_calls: [{ index: 0, id: 'c', function: 'oops' }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([use('c', 'f', {})]);
  });
});
