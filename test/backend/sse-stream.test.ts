import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { STREAM_DONE } from '../../src/types/chat-request.js';
import { fakeFetch, sseBody, sseResponse } from '../support/fake-fetch.js';
import { chatRequest, collect } from './collect.js';

const URL_V1 = 'http://localhost:8080/v1';

function chunk(content: string, extra: Record<string, unknown> = {}) {
  return {
    id: 'c1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
    ...extra,
  };
}

async function run(body: string, splitEvery?: number | number[]) {
  const fake = fakeFetch([sseResponse(body, splitEvery === undefined ? {} : { splitEvery })]);
  const result = await collect(createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch }));
  return { ...result, fake };
}

describe('fetch backend: SSE framing', () => {
  it('POSTs the request as given to {baseURL}/chat/completions with a bearer key', async () => {
    const fake = fakeFetch([sseResponse(sseBody([chunk('Hi')]))]);
    const request = chatRequest({ temperature: 0.2, tools: [] });
    const backend = createFetchBackend({
      baseURL: `${URL_V1}/`,
      apiKey: 'sk-test',
      fetch: fake.fetch,
      headers: { 'X-Extra': '1' },
    });

    await collect(backend, request);

    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      url: 'http://localhost:8080/v1/chat/completions',
      method: 'POST',
      headers: {
        authorization: 'Bearer sk-test',
        'content-type': 'application/json',
        'x-extra': '1',
      },
      body: request,
    });
  });

  it('sends Authorization: Bearer not-needed by default', async () => {
    const { fake } = await run(sseBody([]));
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer not-needed');
  });

  it('yields each data chunk parsed, then STREAM_DONE after [DONE]', async () => {
    const { chunks, error } = await run(sseBody([chunk('Hel'), chunk('lo')]));
    expect(error).toBeUndefined();
    expect(chunks).toEqual([chunk('Hel'), chunk('lo'), STREAM_DONE]);
  });

  it('handles CRLF line endings, keep-alive comments and event ids', async () => {
    const body = `: ping\r\n\r\nid: 1\r\ndata: ${JSON.stringify(chunk('a'))}\r\n\r\n: ping\r\n\r\ndata: ${JSON.stringify(chunk('b'))}\r\n\r\ndata: [DONE]\r\n\r\n`;
    for (const split of [undefined, 1, 2, 3, 7]) {
      const { chunks, error } = await run(body, split);
      expect(error).toBeUndefined();
      expect(chunks).toEqual([chunk('a'), chunk('b'), STREAM_DONE]);
    }
  });

  it('keeps a UTF-8 character that is split across reads', async () => {
    const body = sseBody([chunk('héllo 🌍 日本')]);
    const emoji = new TextEncoder().encode(body.slice(0, body.indexOf('🌍'))).length;
    const { chunks } = await run(body, [emoji + 1, emoji + 2, emoji + 3]);
    expect(chunks[0]).toEqual(chunk('héllo 🌍 日本'));
  });

  it('yields the same chunks wherever the bytes are cut (property)', async () => {
    const expected = [
      chunk('α β'),
      chunk('🌍\n"quoted"'),
      chunk(' end', { usage: { prompt_tokens: 1 } }),
    ];
    const body = sseBody(expected, { newline: '\r\n' });
    const length = new TextEncoder().encode(body).length;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: length - 1 }), { maxLength: 12 }),
        async (offsets) => {
          const { chunks, error } = await run(body, offsets);
          expect(error).toBeUndefined();
          expect(chunks).toEqual([...expected, STREAM_DONE]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('stops at [DONE] and cancels whatever follows', async () => {
    let cancelled = false;
    const body = `${sseBody([chunk('a')])}data: ${JSON.stringify(chunk('after'))}\n\n`;
    const fake = fakeFetch([sseResponse(body, { hang: true, onCancel: () => (cancelled = true) })]);
    const { chunks } = await collect(createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch }));
    expect(chunks).toEqual([chunk('a'), STREAM_DONE]);
    // The end of the body gets a short grace after [DONE]; a server that keeps it open is cut.
    await expect.poll(() => cancelled, { timeout: 2_000 }).toBe(true);
  });

  it('cancels what follows [DONE] in a later read at once', async () => {
    let cancelled = false;
    const done = sseBody([chunk('a')]);
    const body = `${done}data: ${JSON.stringify(chunk('after'))}\n\n`;
    const fake = fakeFetch([
      sseResponse(body, {
        splitEvery: [done.length],
        hang: true,
        onCancel: () => (cancelled = true),
      }),
    ]);
    const { chunks } = await collect(createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch }));
    expect(chunks).toEqual([chunk('a'), STREAM_DONE]);
    await expect.poll(() => cancelled, { timeout: 100 }).toBe(true);
  });

  it('lets a body that ends right after [DONE] end instead of cancelling it', async () => {
    let cancelled = false;
    const fake = fakeFetch([
      sseResponse(sseBody([chunk('a')]), { onCancel: () => (cancelled = true) }),
    ]);
    const { chunks } = await collect(createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch }));
    expect(chunks).toEqual([chunk('a'), STREAM_DONE]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(cancelled).toBe(false);
  });

  it('ends without STREAM_DONE and without an error when the body ends without [DONE]', async () => {
    const { chunks, error } = await run(sseBody([chunk('a')], { done: false }));
    expect(error).toBeUndefined();
    expect(chunks).toEqual([chunk('a')]);
  });

  it('dispatches a last frame that lacks its blank line', async () => {
    const { chunks } = await run(`data: ${JSON.stringify(chunk('a'))}\n\ndata: [DONE]`);
    expect(chunks).toEqual([chunk('a'), STREAM_DONE]);
  });

  it('drops a last frame cut off mid-JSON (truncation is the aggregator’s call)', async () => {
    const { chunks, error } = await run(
      `data: ${JSON.stringify(chunk('a'))}\n\ndata: {"choices":[{"delta":{"con`,
    );
    expect(error).toBeUndefined();
    expect(chunks).toEqual([chunk('a')]);
  });

  it('skips empty data lines', async () => {
    const { chunks } = await run(`data:\n\n${sseBody([chunk('a')])}`);
    expect(chunks).toEqual([chunk('a'), STREAM_DONE]);
  });

  it('ends quietly on an empty 200 body', async () => {
    const { chunks, error } = await run('');
    expect(error).toBeUndefined();
    expect(chunks).toEqual([]);
  });

  it('reads SSE even when the server labels it text/plain', async () => {
    const fake = fakeFetch([
      sseResponse(sseBody([chunk('a')]), { headers: { 'content-type': 'text/plain' } }),
    ]);
    const { chunks } = await collect(createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch }));
    expect(chunks).toEqual([chunk('a'), STREAM_DONE]);
  });

  it('cancels the HTTP body when the consumer breaks', async () => {
    let cancelled = false;
    const fake = fakeFetch([
      sseResponse(sseBody([chunk('a'), chunk('b')], { done: false }), {
        hang: true,
        onCancel: () => (cancelled = true),
      }),
    ]);
    const backend = createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch });
    const seen: unknown[] = [];
    for await (const item of await backend.chat.completions.create(chatRequest())) {
      seen.push(item);
      break;
    }
    expect(seen).toEqual([chunk('a')]);
    expect(cancelled).toBe(true);
  });
});
