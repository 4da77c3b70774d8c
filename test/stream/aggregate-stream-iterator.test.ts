import { describe, expect, it } from 'vitest';
import { aggregateStream } from '../../src/stream/aggregate-stream.js';
import { STREAM_DONE, chunk, text, textStream } from './collect.js';

/** A source that records whether it was closed. */
function closableSource(chunks: readonly unknown[]) {
  const state = { closed: false, pulled: 0 };
  async function* generate(): AsyncGenerator<unknown> {
    try {
      for (const value of chunks) {
        state.pulled++;
        await Promise.resolve();
        yield value;
      }
    } finally {
      state.closed = true;
    }
  }
  return { source: generate(), state };
}

describe('aggregateStream as an async generator', () => {
  it('answers next() calls made without waiting in order, like a generator', async () => {
    const stream = aggregateStream(closableSource(textStream(['a', 'b', 'c'])).source);

    const steps = await Promise.all([
      stream.next(),
      stream.next(),
      stream.next(),
      stream.next(),
      stream.next(),
    ]);

    expect(steps.slice(0, 3)).toEqual([
      { done: false, value: text('a') },
      { done: false, value: text('b') },
      { done: false, value: text('c') },
    ]);
    expect(steps[3]).toMatchObject({ done: true, value: { text: 'abc', finishReason: 'stop' } });
    expect(steps[4]).toEqual({ done: true, value: undefined });
  });

  it('closes the source when the consumer breaks out', async () => {
    const { source, state } = closableSource(textStream(['a', 'b', 'c']));

    for await (const event of aggregateStream(source)) {
      expect(event).toEqual(text('a'));
      break;
    }

    expect(state.closed).toBe(true);
    expect(state.pulled).toBe(2);
  });

  it('closes the source and rethrows on throw(), then reports done', async () => {
    const { source, state } = closableSource(textStream(['a', 'b']));
    const stream = aggregateStream(source);
    await stream.next();
    const reason = new Error('consumer gave up');

    await expect(stream.throw(reason)).rejects.toBe(reason);

    expect(state.closed).toBe(true);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('wraps a source whose iterator throws synchronously as STREAM_ERROR', async () => {
    const broken: AsyncIterable<unknown> = {
      [Symbol.asyncIterator]() {
        throw new RangeError('engine not loaded');
      },
    };

    await expect(aggregateStream(broken).next()).rejects.toMatchObject({
      code: 'STREAM_ERROR',
      message: 'Reading the response stream failed: engine not loaded',
    });
  });

  it('closes the source when a chunk carries an error', async () => {
    const { source, state } = closableSource([
      chunk({ content: 'a' }),
      { error: 'boom' },
      chunk({}, 'stop'),
      STREAM_DONE,
    ]);
    const stream = aggregateStream(source);

    expect(await stream.next()).toEqual({ done: false, value: text('a') });
    await expect(stream.next()).rejects.toMatchObject({ code: 'STREAM_ERROR' });
    expect(state.closed).toBe(true);
    expect(state.pulled).toBe(2);
  });

  it('throws EXECUTION_CANCELLED without reading when the signal is already aborted', async () => {
    const { source, state } = closableSource(textStream(['a']));
    const controller = new AbortController();
    controller.abort();

    await expect(
      aggregateStream(source, { signal: controller.signal }).next(),
    ).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(state.pulled).toBe(0);
  });
});
