import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { Client } from '../../src/loop/client.js';
import { STREAM_DONE } from '../../src/types/chat-request.js';
import { fakeFetch, sseBody, sseResponse, bytesResponse } from '../support/fake-fetch.js';
import { collect } from './collect.js';
import { collect as collectEvents } from '../support/collect.js';

// Waiting is not failing: a local server that loads a model or reads a long prompt sends its
// first byte after tens of seconds, sometimes minutes. The request it accepted is never sent
// again (each re-send starts the work over, or queues behind it on a one-slot server).
const URL_V1 = 'http://localhost:11434/v1';
const chunk = (content: string) => ({
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

/** A response whose headers (and first byte) arrive after `ms` of (fake) time. */
const lateResponse = (ms: number) => () =>
  new Promise<Response>((resolve) =>
    setTimeout(() => resolve(sseResponse(sseBody([chunk('Hello')]))), ms),
  );

afterEach(() => {
  vi.useRealTimers();
});

describe('a slow first byte', () => {
  it('a default Client gets an answer whose first byte comes at 75 s, with exactly one POST', async () => {
    vi.useFakeTimers();
    const fake = fakeFetch([lateResponse(75_000), lateResponse(75_000), lateResponse(75_000)]);
    const client = new Client({
      model: 'qwen3:30b',
      baseURL: URL_V1,
      fetch: fake.fetch,
      contextWindow: 8192,
    });
    const run = collectEvents(client.run('Hi'));
    // The modules the first call loads come from disk: wait for the request itself.
    await vi.waitFor(() => {
      expect(fake.requests).toHaveLength(1);
    });
    await vi.advanceTimersByTimeAsync(75_000);
    await vi.advanceTimersByTimeAsync(1_000);
    const events = await run;
    expect(
      events
        .filter((event) => event.type === 'text')
        .map((event) => event.type === 'text' && event.text),
    ).toEqual(['Hello']);
    expect(fake.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('a default backend still waits at 5 minutes, and the signal stops it at once', async () => {
    vi.useFakeTimers();
    const fake = fakeFetch([() => new Promise<Response>(() => undefined)]);
    const backend = createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch });
    const controller = new AbortController();
    const result = collect(backend, undefined, controller.signal);
    let settled = false;
    void result.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(5 * 60_000 + 1_000);
    expect(settled).toBe(false);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    const { error } = await result;
    expect(error).toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(fake.requests).toHaveLength(1);
  });

  it('a first-byte timeout, when set, fails without sending the request again', async () => {
    const never = () => new Promise<Response>(() => undefined);
    const fake = fakeFetch([never, never, never]);
    const backend = createFetchBackend(
      { baseURL: URL_V1, fetch: fake.fetch, timeout: { firstByte: 20 } },
      { sleep: () => Promise.resolve() },
    );
    const { error } = await collect(backend);
    expect(fake.requests).toHaveLength(1);
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      message: expect.stringMatching(
        /timed out after 20 ms waiting for the response headers/,
      ) as unknown,
    });
    expect((error as Error).message).not.toMatch(/attempts/);
  });

  it('a connection dropped after the headers, before any byte, is not re-sent (the server had the request)', async () => {
    const dropped = bytesResponse('', {
      errorAfter: new TypeError('terminated'),
      headers: { 'content-type': 'text/event-stream' },
    });
    const fake = fakeFetch([dropped, sseResponse(sseBody([chunk('ok')]))]);
    const backend = createFetchBackend(
      { baseURL: URL_V1, fetch: fake.fetch },
      { sleep: () => Promise.resolve() },
    );
    const { error } = await collect(backend);
    expect(fake.requests).toHaveLength(1);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it('a fetch that fails without saying why (a browser\'s "Failed to fetch") is not re-sent', async () => {
    const fake = fakeFetch([new TypeError('Failed to fetch'), new TypeError('Failed to fetch')]);
    const backend = createFetchBackend(
      { baseURL: URL_V1, fetch: fake.fetch },
      { sleep: () => Promise.resolve() },
    );
    const { error } = await collect(backend);
    expect(fake.requests).toHaveLength(1);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])(
    'a connection that provably never started (%s) is tried again',
    async (code) => {
      const refused = new TypeError('fetch failed', {
        cause: Object.assign(new Error(`connect ${code}`), { code }),
      });
      const fake = fakeFetch([refused, sseResponse(sseBody([chunk('ok')]))]);
      const backend = createFetchBackend(
        { baseURL: URL_V1, fetch: fake.fetch },
        { sleep: () => Promise.resolve() },
      );
      const { chunks, error } = await collect(backend);
      expect(error).toBeUndefined();
      expect(chunks).toEqual([chunk('ok'), STREAM_DONE]);
      expect(fake.requests).toHaveLength(2);
    },
  );
});
