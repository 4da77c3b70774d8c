import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors/agent-error.js';
import { aggregateStream } from '../../src/stream/aggregate-stream.js';
import { STREAM_DONE, chunk, collect, text } from './collect.js';

async function* failingSource(error: unknown): AsyncGenerator<unknown> {
  await Promise.resolve();
  yield chunk({ content: 'partial' });
  throw error;
}

describe('aggregateStream: errors', () => {
  it('propagates an AgentError thrown by the source unchanged, after the text that came', async () => {
    const thrown = new AgentError('NETWORK_ERROR', 'connection reset');

    const { events, error } = await collect(failingSource(thrown));

    expect(events).toEqual([text('partial')]);
    expect(error).toBe(thrown);
  });

  it('wraps any other error from a source (openai SDK, WebLLM) as STREAM_ERROR with cause', async () => {
    const thrown = new TypeError('engine exploded');

    const { events, error } = await collect(failingSource(thrown));

    expect(events).toEqual([text('partial')]);
    expect(error).toMatchObject({
      name: 'AgentError',
      code: 'STREAM_ERROR',
      message: 'Reading the response stream failed: engine exploded',
    });
    expect(error?.cause).toBe(thrown);
  });

  it('turns an AbortError from a source into EXECUTION_CANCELLED', async () => {
    const thrown = new DOMException('The operation was aborted.', 'AbortError');

    const { error } = await collect(failingSource(thrown));

    expect(error).toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(error?.cause).toBe(thrown);
  });

  it('stops reading when the signal aborts, for engines that keep producing', async () => {
    const controller = new AbortController();
    let pulled = 0;
    async function* endless(): AsyncGenerator<unknown> {
      for (;;) {
        pulled++;
        await Promise.resolve();
        yield chunk({ content: 'x' });
      }
    }

    const events: unknown[] = [];
    let error: unknown;
    try {
      for await (const event of aggregateStream(endless(), { signal: controller.signal })) {
        events.push(event);
        controller.abort();
      }
    } catch (caught) {
      error = caught;
    }

    expect(events).toEqual([text('x')]);
    expect(error).toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(pulled).toBe(1);
  });

  it.each([
    [
      { error: { message: 'model not loaded', type: 'server_error', code: 500 } },
      'model not loaded',
    ],
    [{ error: 'out of memory' }, 'out of memory'],
    [{ error: { code: 503 } }, '{"code":503}'],
  ])(
    'throws STREAM_ERROR with the server message for a chunk carrying error: %j',
    async (errorChunk, message) => {
      const { events, error } = await collect([
        chunk({ content: 'a' }),
        errorChunk,
        chunk({}, 'stop'),
        STREAM_DONE,
      ]);

      expect(events).toEqual([text('a')]);
      expect(error).toMatchObject({
        code: 'STREAM_ERROR',
        message: `The server reported an error in the stream: ${message}`,
      });
    },
  );

  it('ignores `error: null` on ordinary chunks', async () => {
    const { turn, error } = await collect([
      chunk({ content: 'a' }, 'stop', { error: null }),
      STREAM_DONE,
    ]);

    expect(error).toBeUndefined();
    expect(turn?.text).toBe('a');
  });
});
