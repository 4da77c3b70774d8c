import { describe, expect, it } from 'vitest';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { CHUNK_BATCHES, isChunkBatchSource } from '../../src/stream/chunk-batches.js';
import { STREAM_DONE } from '../../src/types/chat-request.js';
import { fakeFetch, ndjsonResponse, sseBody, sseResponse } from '../support/fake-fetch.js';
import { chatRequest } from './collect.js';

const URL_V1 = 'http://localhost:1234/v1';
const chunk = (content: string) => ({
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

/** Every batch the backend's batch view hands out, and what it threw. */
async function collectBatches(
  chunks: AsyncIterable<unknown>,
): Promise<{ batches: unknown[][]; error: unknown }> {
  const batches: unknown[][] = [];
  if (!isChunkBatchSource(chunks)) throw new Error('the fetch backend offers no batches');
  const iterator = chunks[CHUNK_BATCHES]();
  try {
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next())
      batches.push([...step.value]);
    return { batches, error: undefined };
  } catch (error) {
    return { batches, error };
  }
}

describe('fetch backend: batches for aggregateStream', () => {
  it('hands out one batch per body read, in order, ending with STREAM_DONE', async () => {
    const frames = [sseBody([chunk('a'), chunk('b')], { done: false }), sseBody([chunk('c')])];
    const fake = fakeFetch([
      sseResponse(frames.join(''), { splitEvery: [frames[0]?.length ?? 0] }),
    ]);
    const backend = createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch });

    const { batches, error } = await collectBatches(
      await backend.chat.completions.create(chatRequest()),
    );

    expect(error).toBeUndefined();
    expect(batches).toEqual([
      [chunk('a'), chunk('b')],
      [chunk('c'), STREAM_DONE],
    ]);
    expect(fake.requests).toHaveLength(1);
  });

  it('cuts a read of megabytes (as browsers deliver) into batches of about 32 KB, in order', async () => {
    const chunks = Array.from({ length: 2_000 }, (_, index) => chunk(`delta ${index} é → `));
    const body = sseBody(chunks);
    const fake = fakeFetch([sseResponse(body)]);
    const backend = createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch });

    const { batches, error } = await collectBatches(
      await backend.chat.completions.create(chatRequest()),
    );

    expect(error).toBeUndefined();
    expect(batches.flat()).toEqual([...chunks, STREAM_DONE]);
    expect(batches.length).toBeGreaterThanOrEqual(Math.floor(body.length / (32 * 1024)));
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(body.length / (32 * 1024)));
  });

  it('hands out the chunks before a mid-stream error, then throws it', async () => {
    const body = `${sseBody([chunk('a')], { done: false })}data: {"error":{"message":"out of memory"}}\n\n${sseBody([chunk('never')])}`;
    const fake = fakeFetch([sseResponse(body)]);
    const backend = createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch });

    const { batches, error } = await collectBatches(
      await backend.chat.completions.create(chatRequest()),
    );

    expect(batches).toEqual([[chunk('a')]]);
    expect(error).toMatchObject({ code: 'STREAM_ERROR', message: 'out of memory' });
  });

  it('batches Ollama NDJSON lines the same way', async () => {
    const lines = [
      { model: 'm', message: { role: 'assistant', content: 'Hi' }, done: false },
      { model: 'm', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' },
    ];
    const fake = fakeFetch([ndjsonResponse(lines, { splitEvery: 7 })]);
    const backend = createFetchBackend({
      baseURL: 'http://localhost:11434',
      api: 'ollama',
      fetch: fake.fetch,
    });

    const { batches, error } = await collectBatches(
      await backend.chat.completions.create(chatRequest()),
    );

    expect(error).toBeUndefined();
    const chunks = batches.flat();
    expect(chunks.at(-1)).toBe(STREAM_DONE);
    expect(chunks[0]).toMatchObject({ choices: [{ delta: { content: 'Hi' } }] });
    // Reads of 7 bytes complete a line only now and then: no empty batch is handed out.
    expect(batches.every((batch) => batch.length > 0)).toBe(true);
  });

  it('shares one request between the batch view and plain iteration, which is read once', async () => {
    const fake = fakeFetch([sseResponse(sseBody([chunk('a')]))]);
    const backend = createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch });
    const chunks = await backend.chat.completions.create(chatRequest());

    const first: unknown[] = [];
    for await (const item of chunks) first.push(item);
    const second: unknown[] = [];
    for await (const item of chunks) second.push(item);

    expect(first).toEqual([chunk('a'), STREAM_DONE]);
    expect(second).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });
});
