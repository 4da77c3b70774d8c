import { describe, expect, it } from 'vitest';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { fakeFetch, sseBody, sseResponse } from '../support/fake-fetch.js';
import { chatRequest, collect } from './collect.js';

const URL_V1 = 'http://localhost:1234/v1';
const chunk = (content: string) => ({
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

describe('fetch backend: abort', () => {
  it('passes fetch a signal that aborts when the caller’s signal does', async () => {
    const controller = new AbortController();
    const fake = fakeFetch([
      () => {
        queueMicrotask(() => controller.abort());
        return new Promise<Response>(() => undefined); // a fetch that never answers and ignores its signal
      },
    ]);
    const { error } = await collect(
      createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch }),
      chatRequest(),
      controller.signal,
    );
    expect(error).toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.signal?.aborted).toBe(true);
  });

  it('throws EXECUTION_CANCELLED mid-stream, keeps the chunks before, and cancels the body', async () => {
    const controller = new AbortController();
    let cancelled = false;
    const fake = fakeFetch([
      sseResponse(sseBody([chunk('a'), chunk('b')], { done: false }), {
        hang: true,
        onCancel: () => (cancelled = true),
      }),
    ]);
    const backend = createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch });
    const seen: unknown[] = [];
    let thrown: unknown;
    try {
      for await (const item of await backend.chat.completions.create(chatRequest(), {
        signal: controller.signal,
      })) {
        seen.push(item);
        if (seen.length === 2) controller.abort();
      }
    } catch (error) {
      thrown = error;
    }
    expect(seen).toEqual([chunk('a'), chunk('b')]);
    expect(thrown).toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(cancelled).toBe(true);
    expect(fake.requests[0]?.signal?.aborted).toBe(true);
  });

  it('hands fetch no signal of its own when nothing can stop the request before its headers', async () => {
    // Without a caller's signal or a firstByte limit, nothing aborts a fetch: undici's following
    // of a signal (listeners, a finalizer) would be paid per request for nothing.
    const bare = fakeFetch([sseResponse(sseBody([chunk('a')]))]);
    await collect(createFetchBackend({ baseURL: URL_V1, fetch: bare.fetch }), chatRequest());
    expect(bare.requests[0]?.signal).toBeUndefined();
    // With the caller's signal only, fetch gets that signal itself: no controller linked to it.
    const controller = new AbortController();
    const passed = fakeFetch([sseResponse(sseBody([chunk('a')]))]);
    await collect(
      createFetchBackend({ baseURL: URL_V1, fetch: passed.fetch }),
      chatRequest(),
      controller.signal,
    );
    expect(passed.requests[0]?.signal).toBe(controller.signal);
  });

  it('throws EXECUTION_CANCELLED when the signal is aborted before the call', async () => {
    const fake = fakeFetch([sseResponse(sseBody([chunk('a')]))]);
    const { error } = await collect(
      createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch }),
      chatRequest(),
      AbortSignal.abort(),
    );
    expect(error).toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('fetch backend: timeout', () => {
  it('times out waiting for headers and throws NETWORK_ERROR without sending again', async () => {
    const never = () => new Promise<Response>(() => undefined);
    const fake = fakeFetch([never, never]);
    const backend = createFetchBackend(
      { baseURL: URL_V1, fetch: fake.fetch, timeout: 20, maxRetries: 1 },
      { sleep: () => Promise.resolve() },
    );
    const { error } = await collect(backend);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.signal?.aborted).toBe(true);
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      message: expect.stringMatching(
        /timed out after 20 ms waiting for the response headers/,
      ) as unknown,
    });
  });

  it('times out when the body goes silent mid-stream, after the chunks before, and cancels it', async () => {
    let cancelled = false;
    const fake = fakeFetch([
      sseResponse(sseBody([chunk('a')], { done: false }), {
        hang: true,
        onCancel: () => (cancelled = true),
      }),
      sseResponse(sseBody([chunk('unused')])),
    ]);
    const backend = createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch, timeout: 20 });
    const { chunks, error } = await collect(backend);
    expect(chunks).toEqual([chunk('a')]);
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      message: expect.stringMatching(/timed out after 20 ms waiting for data/) as unknown,
    });
    expect(cancelled).toBe(true);
    expect(fake.requests).toHaveLength(1); // the stream had started: no retry
  });

  it('does not send again when headers arrive but the first byte never does (the server has the request)', async () => {
    const fake = fakeFetch([sseResponse('', { hang: true }), sseResponse(sseBody([chunk('ok')]))]);
    const backend = createFetchBackend(
      { baseURL: URL_V1, fetch: fake.fetch, timeout: 20 },
      { sleep: () => Promise.resolve() },
    );
    const { error } = await collect(backend);
    expect(fake.requests).toHaveLength(1);
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      message: expect.stringMatching(/timed out after 20 ms waiting for data/) as unknown,
    });
  });

  it('applies firstByte to the wait before the body and idle to the silences after', async () => {
    const fake = fakeFetch([sseResponse(sseBody([chunk('a')], { done: false }), { hang: true })]);
    const backend = createFetchBackend({
      baseURL: URL_V1,
      fetch: fake.fetch,
      timeout: { firstByte: 5_000, idle: 20 },
    });
    const { chunks, error } = await collect(backend);
    expect(chunks).toEqual([chunk('a')]);
    expect(error).toMatchObject({
      message: expect.stringMatching(/timed out after 20 ms waiting for data/) as unknown,
    });
  });

  it('times out an idle body with no firstByte limit (fetch had no signal): cancels it', async () => {
    let cancelled = false;
    const fake = fakeFetch([
      sseResponse(sseBody([chunk('a')], { done: false }), {
        hang: true,
        onCancel: () => (cancelled = true),
      }),
    ]);
    const backend = createFetchBackend({
      baseURL: URL_V1,
      fetch: fake.fetch,
      timeout: { idle: 20 },
    });
    const { chunks, error } = await collect(backend);
    expect(fake.requests[0]?.signal).toBeUndefined();
    expect(chunks).toEqual([chunk('a')]);
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      message: expect.stringMatching(/timed out after 20 ms waiting for data/) as unknown,
    });
    expect(cancelled).toBe(true);
  });

  it('does not time out a stream whose reads keep coming', async () => {
    const body = sseBody([chunk('a'), chunk('b'), chunk('c')]);
    const fake = fakeFetch([sseResponse(body, { splitEvery: 4 })]);
    const { chunks, error } = await collect(
      createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch, timeout: 1_000 }),
    );
    expect(error).toBeUndefined();
    expect(chunks).toHaveLength(4);
  });
});
