import { describe, expect, it } from 'vitest';
import { STREAM_DONE, chunk, collect, reasoning, text, textStream } from './collect.js';

const weatherCall = (args: string) =>
  chunk({
    tool_calls: [
      {
        index: 0,
        id: 'call_1',
        type: 'function',
        function: { name: 'get_weather', arguments: args },
      },
    ],
  });

describe('aggregateStream: finish and end of stream', () => {
  it('reports `stop` as `tool_calls` when calls arrived (older Ollama, LM Studio)', async () => {
    const { turn } = await collect([
      weatherCall('{"city":"Oslo"}'),
      chunk({}, 'stop'),
      STREAM_DONE,
    ]);

    expect(turn).toMatchObject({ finishReason: 'tool_calls', rawFinishReason: 'stop' });
    expect(turn?.toolCalls).toHaveLength(1);
  });

  it('keeps `stop` without calls, and passes other reasons through', async () => {
    expect((await collect(textStream(['a']))).turn).toMatchObject({
      finishReason: 'stop',
      rawFinishReason: 'stop',
    });
    expect((await collect(textStream(['a'], 'content_filter'))).turn).toMatchObject({
      finishReason: 'content_filter',
    });
  });

  it('reports a call cut off by `length` as a tool_use_error that is never executed', async () => {
    const { events, turn } = await collect([
      chunk({ content: 'Sure.' }),
      weatherCall('{"city": "Os'),
      chunk({}, 'length'),
      STREAM_DONE,
    ]);

    const error = {
      type: 'tool_use_error',
      code: 'INVALID_TOOL_INPUT',
      error:
        'The response was cut off at the token limit (finish_reason "length") while the arguments of tool call "get_weather" were being written; the call was not executed.',
      rawData: '{"city": "Os',
      toolUseId: 'call_1',
      name: 'get_weather',
    };
    expect(events).toEqual([text('Sure.'), error]);
    expect(turn).toMatchObject({
      toolCalls: [],
      invalidToolCalls: [error],
      finishReason: 'length',
      rawFinishReason: 'length',
    });
  });

  it('runs a call whose arguments were complete when `length` came', async () => {
    const { turn } = await collect([
      weatherCall('{"city":"Oslo"}'),
      chunk({}, 'length'),
      STREAM_DONE,
    ]);

    expect(turn?.toolCalls).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    expect(turn?.finishReason).toBe('length');
  });

  it('is complete with [DONE] but no finish reason: `stop`, or `tool_calls` with calls', async () => {
    const plain = await collect([chunk({ content: 'hi' }), STREAM_DONE]);
    const withCall = await collect([weatherCall('{}'), STREAM_DONE]);

    expect(plain.turn).toMatchObject({ text: 'hi', finishReason: 'stop', rawFinishReason: null });
    expect(withCall.turn).toMatchObject({ finishReason: 'tool_calls', rawFinishReason: null });
  });

  it('is complete without [DONE] once a finish reason came (old text-generation-webui)', async () => {
    const { events, turn, error } = await collect([chunk({ content: 'hi' }), chunk({}, 'stop')]);

    expect(error).toBeUndefined();
    expect(events).toEqual([text('hi')]);
    expect(turn).toMatchObject({ text: 'hi', finishReason: 'stop' });
  });

  it('throws STREAM_TRUNCATED with neither, after yielding the text that came (held-back text too)', async () => {
    const { events, turn, error } = await collect([
      chunk({ reasoning_content: 'r' }),
      chunk({ content: 'Hello <thi' }),
    ]);

    expect(events).toEqual([reasoning('r'), text('Hello <thi')]);
    expect(turn).toBeUndefined();
    expect(error).toMatchObject({ name: 'AgentError', code: 'STREAM_TRUNCATED' });
    expect(error?.message).toContain('without [DONE] or a finish reason');
  });

  it('does not yield tool calls of a truncated stream', async () => {
    const { events, error } = await collect([weatherCall('{"city":"Oslo"}')]);

    expect(events).toEqual([]);
    expect(error?.code).toBe('STREAM_TRUNCATED');
  });

  it('keeps the last non-null finish reason and reads nothing after [DONE]', async () => {
    const { events, turn } = await collect([
      chunk({ content: 'a' }, 'stop'),
      { choices: [{ index: 0, finish_reason: null, content_filter_results: {} }] },
      STREAM_DONE,
      chunk({ content: 'late' }, 'length'),
    ]);

    expect(events).toEqual([text('a')]);
    expect(turn).toMatchObject({ text: 'a', finishReason: 'stop' });
  });

  it('stops reading the source at [DONE] (so a transport can release the body)', async () => {
    let closed = false;
    async function* source() {
      try {
        await Promise.resolve();
        yield chunk({ content: 'a' }, 'stop');
        yield STREAM_DONE;
        yield chunk({ content: 'never read' });
      } finally {
        closed = true;
      }
    }

    const { events } = await collect(source());

    expect(events).toEqual([text('a')]);
    expect(closed).toBe(true);
  });
});
