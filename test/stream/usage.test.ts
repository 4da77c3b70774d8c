import { describe, expect, it } from 'vitest';
import { readUsage } from '../../src/stream/usage-reader.js';
import { STREAM_DONE, chunk, collect } from './collect.js';

describe('aggregateStream: usage', () => {
  it('reads a usage-only final chunk with choices: []', async () => {
    const { turn } = await collect([
      chunk({ content: 'hi' }),
      chunk({}, 'stop'),
      { id: 'x', choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
      STREAM_DONE,
    ]);

    expect(turn?.usage).toEqual({ promptTokens: 5, completionTokens: 2, totalTokens: 7 });
  });

  it('reads usage on the finish chunk and ignores usage: null on ordinary chunks', async () => {
    const { turn } = await collect([
      chunk({ content: 'hi' }, null, { usage: null }),
      chunk({}, 'stop', {
        usage: {
          prompt_tokens: 3,
          completion_tokens: 1,
          total_tokens: 4,
          completion_tokens_details: { reasoning_tokens: 0 },
        },
      }),
      STREAM_DONE,
    ]);

    expect(turn?.usage).toEqual({ promptTokens: 3, completionTokens: 1, totalTokens: 4 });
  });

  it('takes the last of usages sent on every chunk (vLLM continuous usage stats)', async () => {
    const { turn } = await collect([
      chunk({ content: 'a' }, null, {
        usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
      }),
      chunk({ content: 'b' }, null, {
        usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
      }),
      chunk({}, 'stop', { usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } }),
      STREAM_DONE,
    ]);

    expect(turn?.usage).toEqual({ promptTokens: 9, completionTokens: 3, totalTokens: 12 });
  });

  it('is undefined when the server sent none', async () => {
    const { turn } = await collect([chunk({ content: 'a' }, 'stop'), STREAM_DONE]);

    expect(turn?.usage).toBeUndefined();
  });

  it('takes total_tokens as sent (xAI counts reasoning only in the total)', async () => {
    const { turn } = await collect([
      chunk({}, 'stop'),
      { choices: [], usage: { prompt_tokens: 307, completion_tokens: 26, total_tokens: 560 } },
      STREAM_DONE,
    ]);

    expect(turn?.usage).toEqual({ promptTokens: 307, completionTokens: 26, totalTokens: 560 });
  });

  it('reads partial or odd usage objects defensively', () => {
    expect(readUsage({ prompt_tokens: 4, completion_tokens: 6 })).toEqual({
      promptTokens: 4,
      completionTokens: 6,
      totalTokens: 10,
    });
    expect(readUsage({ queue_time: 0.1 })).toBeUndefined();
    expect(readUsage({ prompt_tokens: '4' })).toBeUndefined();
    expect(readUsage([1, 2])).toBeUndefined();
    expect(readUsage(null)).toBeUndefined();
  });
});
