import { describe, expect, it } from 'vitest';
import type { ToolCallDelta } from '../../src/stream/aggregate-stream.js';
import { ChunkAggregator } from '../../src/stream/chunk-aggregator.js';
import { STREAM_DONE, chunk, collect } from './collect.js';

const call = (index: number, fn: Record<string, unknown>, id?: string) => ({
  index,
  ...(id === undefined ? {} : { id, type: 'function' }),
  function: fn,
});

/** Two parallel calls streamed in fragments, as llama.cpp and vLLM send them. */
const fragmented = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ tool_calls: [call(0, { name: 'get_weather', arguments: '' }, 'call_1')] }),
  chunk({ tool_calls: [call(0, { arguments: '{"ci' })] }),
  chunk({ tool_calls: [call(0, { arguments: 'ty":"Oslo"}' })] }),
  chunk({ tool_calls: [call(1, { name: 'add', arguments: '{"a":' }, 'call_2')] }),
  chunk({ tool_calls: [call(1, { arguments: '1}' })] }),
  chunk({}, 'tool_calls'),
  STREAM_DONE,
];

describe('aggregateStream: onToolCallDelta', () => {
  it('tells the listener each call’s whole arguments text as fragments arrive', async () => {
    const deltas: ToolCallDelta[] = [];

    const { events, error } = await collect(fragmented, {
      onToolCallDelta: (delta) => deltas.push(delta),
    });

    expect(error).toBeUndefined();
    expect(deltas).toEqual([
      { index: 0, id: 'call_1', name: 'get_weather', arguments: '' },
      { index: 0, id: 'call_1', name: 'get_weather', arguments: '{"ci' },
      { index: 0, id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { index: 1, id: 'call_2', name: 'add', arguments: '{"a":' },
      { index: 1, id: 'call_2', name: 'add', arguments: '{"a":1}' },
    ]);
    expect(events.map((event) => event.type)).toEqual(['tool_use', 'tool_use']);
  });

  it('reports a call sent whole once, and numbers calls by position when the server starts at 1', async () => {
    const deltas: ToolCallDelta[] = [];
    // Anthropic's compatibility layer numbers calls from 1.
    const chunks = [
      chunk({ tool_calls: [call(1, { name: 'add', arguments: '{"a":1}' }, 'call_x')] }),
      chunk({ tool_calls: [call(1, { arguments: '' })] }),
      chunk({}, 'tool_calls'),
    ];

    await collect(chunks, { onToolCallDelta: (delta) => deltas.push(delta) });

    expect(deltas).toEqual([{ index: 0, id: 'call_x', name: 'add', arguments: '{"a":1}' }]);
  });

  it('gives arguments sent as an object (Ollama) as their JSON text', () => {
    const deltas: ToolCallDelta[] = [];
    const aggregator = new ChunkAggregator({ onToolCallDelta: (delta) => deltas.push(delta) });

    aggregator.push(chunk({ tool_calls: [{ function: { name: 'add', arguments: { a: 1 } } }] }));

    expect(deltas).toEqual([{ index: 0, name: 'add', arguments: '{"a":1}' }]);
  });

  it('produces the same events and turn without a listener', async () => {
    const withListener = await collect(fragmented, {
      onToolCallDelta: () => {},
      generateId: () => 'id',
    });
    const without = await collect(fragmented, { generateId: () => 'id' });

    expect(without).toEqual(withListener);
  });
});
