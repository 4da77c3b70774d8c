import { describe, expect, it } from 'vitest';
import { aggregateStream } from '../../src/stream/aggregate-stream.js';
import { CHUNK_BATCHES, type ChunkBatchSource } from '../../src/stream/chunk-batches.js';
import { STREAM_DONE, chunk, collect, reasoning, text, textStream } from './collect.js';

/**
 * A source offering batches; iterating it chunk by chunk fails the test, so a passing
 * test proves aggregateStream took the batch path. Records what happened to the batches.
 */
function batchSource(batches: readonly (readonly unknown[])[]) {
  const state = { pulled: 0, closed: false };
  async function* generate(): AsyncGenerator<readonly unknown[]> {
    try {
      for (const batch of batches) {
        state.pulled++;
        await Promise.resolve();
        yield batch;
      }
    } finally {
      state.closed = true;
    }
  }
  const source: AsyncIterable<unknown> & ChunkBatchSource = {
    [CHUNK_BATCHES]: generate,
    [Symbol.asyncIterator]() {
      throw new Error('aggregateStream iterated the chunks although batches were offered');
    },
  };
  return { source, state };
}

describe('aggregateStream over a batch source', () => {
  it('yields the same events and turn as over the same chunks one by one', async () => {
    const chunks = [
      chunk({ role: 'assistant', reasoning_content: 'hmm' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo <thi' }),
      chunk({ content: 'nk>x</think> there' }),
      chunk(
        { tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '{}' } }] },
        'tool_calls',
      ),
      STREAM_DONE,
    ];
    const { source } = batchSource([chunks.slice(0, 2), [], chunks.slice(2, 5), chunks.slice(5)]);

    const batched = await collect(source, { toolNames: new Set(['f']) });
    const single = await collect(chunks, { toolNames: new Set(['f']) });

    expect(batched.error).toBeUndefined();
    expect(batched.events).toEqual(single.events);
    expect(batched.events.slice(0, 2)).toEqual([reasoning('hmm'), text('Hel')]);
    expect(batched.turn).toEqual(single.turn);
  });

  it('merges the text deltas of one read into one text event', async () => {
    const { source } = batchSource([textStream(['a', 'b', 'c'])]);

    const { events, turn } = await collect(source);

    expect(events).toEqual([text('abc')]);
    expect(turn?.text).toBe('abc');
  });

  it('streams deltas that arrive one per read one event each', async () => {
    const [opening, ...rest] = textStream(['a', 'b', 'c']);
    const { source } = batchSource([[opening], [rest[0]], [rest[1]], rest.slice(2)]);

    const { events, turn } = await collect(source);

    expect(events).toEqual([text('a'), text('b'), text('c')]);
    expect(turn?.text).toBe('abc');
  });

  it('merges runs of one kind only, keeping text, reasoning and the move of text to reasoning in order', async () => {
    const chunks = [
      chunk({ role: 'assistant', reasoning_content: 'hm' }),
      chunk({ reasoning_content: 'm' }),
      chunk({ content: 'Thought ' }),
      chunk({ content: 'more</think>' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }, 'stop'),
      STREAM_DONE,
    ];
    const { source } = batchSource([chunks]);

    const batched = await collect(source);
    const single = await collect(chunks);

    expect(batched.events).toEqual([
      reasoning('hmm'),
      text('Thought '),
      { type: 'text_was_reasoning', text: 'Thought ' },
      reasoning('more'),
      text('Hello'),
    ]);
    expect(batched.turn).toEqual(single.turn);
  });

  it('stops at the read where the signal aborted, without reading the next', async () => {
    const controller = new AbortController();
    const [opening, a, b, ...rest] = textStream(['a', 'b', 'c']);
    const { source, state } = batchSource([[opening, a, b], rest]);
    const stream = aggregateStream(source, { signal: controller.signal });

    const first = await stream.next();
    controller.abort();
    const second = stream.next();

    expect(first).toEqual({ done: false, value: text('ab') });
    await expect(second).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(state).toEqual({ pulled: 1, closed: true });
  });

  it('closes the batch iterator at [DONE] without reading further batches', async () => {
    const { source, state } = batchSource([textStream(['a']), [chunk({ content: 'after done' })]]);

    const { events, turn } = await collect(source);

    expect(events).toEqual([text('a')]);
    expect(turn?.text).toBe('a');
    expect(state).toEqual({ pulled: 1, closed: true });
  });

  it('reports the text of a batch before an error chunk in it, then the error', async () => {
    const { source } = batchSource([
      [
        chunk({ content: 'partial' }),
        { error: { message: 'model crashed' } },
        chunk({ content: 'x' }),
      ],
    ]);

    const { events, error } = await collect(source);

    expect(events).toEqual([text('partial')]);
    expect(error).toMatchObject({
      code: 'STREAM_ERROR',
      message: expect.stringContaining('model crashed') as unknown,
    });
  });

  it('reads chunk by chunk when the batch key is not a method', async () => {
    const chunks = textStream(['a', 'b']);
    const source = {
      [CHUNK_BATCHES]: 'not a method',
      async *[Symbol.asyncIterator]() {
        for (const value of chunks) yield await Promise.resolve(value);
      },
    };

    const { events, turn } = await collect(source);

    expect(events).toEqual([text('a'), text('b')]);
    expect(turn?.text).toBe('ab');
  });
});
