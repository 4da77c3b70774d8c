import { describe, expect, it } from 'vitest';
import { STREAM_DONE, chunk, collect, text } from './collect.js';

describe('aggregateStream: shapes that are ignored', () => {
  it('ignores a choice without delta, chunks with choices: [], extra top-level fields and non-objects', async () => {
    const { events, turn, error } = await collect([
      {
        choices: [],
        id: '',
        model: '',
        object: '',
        prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }],
      },
      chunk({ role: 'assistant', content: 'Hi' }, null, {
        x_groq: { id: 'req_1' },
        obfuscation: 'Zx9',
        service_tier: 'default',
      }),
      { choices: [{ index: 0, finish_reason: null, content_filter_offsets: { start_offset: 0 } }] },
      { id: 'no-choices' },
      { choices: 'not an array' },
      { choices: [null, 7] },
      null,
      'data',
      42,
      [chunk({ content: 'in an array' })],
      chunk({}, 'stop'),
      STREAM_DONE,
    ]);

    expect(error).toBeUndefined();
    expect(events).toEqual([text('Hi')]);
    expect(turn).toMatchObject({ text: 'Hi', finishReason: 'stop' });
  });

  it('reads only choice index 0 (n > 1 streams interleave choices)', async () => {
    const { events, turn } = await collect([
      { choices: [{ index: 1, delta: { content: 'other' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: 'mine' }, finish_reason: null }] },
      {
        choices: [
          { index: 1, delta: {}, finish_reason: 'length' },
          { index: 0, delta: {}, finish_reason: 'stop' },
        ],
      },
      STREAM_DONE,
    ]);

    expect(events).toEqual([text('mine')]);
    expect(turn).toMatchObject({ text: 'mine', finishReason: 'stop' });
  });
});
