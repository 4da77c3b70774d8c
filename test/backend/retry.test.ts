import { describe, expect, it } from 'vitest';
import { createFetchBackend, type FetchBackendInternals } from '../../src/backend/fetch-backend.js';
import { retryAfterMs, retryDelay } from '../../src/backend/retry-delay.js';
import { sleep } from '../../src/backend/sleep.js';
import { STREAM_DONE } from '../../src/types/chat-request.js';
import {
  bytesResponse,
  fakeFetch,
  jsonResponse,
  sseBody,
  sseResponse,
  type FakeFetchStep,
} from '../support/fake-fetch.js';
import { collect } from './collect.js';

const URL_V1 = 'http://localhost:8000/v1';
const chunk = (content: string) => ({
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});
const ok = () => sseResponse(sseBody([chunk('ok')]));

/** A backend whose backoff waits are recorded, not slept. */
function setup(
  steps: FakeFetchStep[],
  options: { maxRetries?: number; random?: () => number } = {},
) {
  const fake = fakeFetch(steps);
  const delays: number[] = [];
  const internals: FetchBackendInternals = {
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
    retryDelay: { random: options.random ?? (() => 0.5) },
  };
  const backend = createFetchBackend(
    {
      baseURL: URL_V1,
      fetch: fake.fetch,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    },
    internals,
  );
  return { fake, delays, backend };
}

describe('fetch backend: retries', () => {
  it.each([408, 409, 429, 500, 502, 503])('retries HTTP %i and succeeds', async (status) => {
    const { fake, backend, delays } = setup([jsonResponse({ error: 'busy' }, { status }), ok()]);
    const { chunks, error } = await collect(backend);
    expect(error).toBeUndefined();
    expect(chunks).toEqual([chunk('ok'), STREAM_DONE]);
    expect(fake.requests).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('makes 3 requests in all by default, then throws the last HTTP error', async () => {
    const { fake, backend, delays } = setup([
      jsonResponse({ error: 'one' }, { status: 503 }),
      jsonResponse({ error: 'two' }, { status: 503 }),
      jsonResponse({ error: 'three' }, { status: 503 }),
    ]);
    const { error } = await collect(backend);
    expect(fake.requests).toHaveLength(3);
    expect(fake.unscripted).toHaveLength(0);
    expect(error).toMatchObject({
      code: 'HTTP_ERROR',
      status: 503,
      message: expect.stringContaining(': three') as unknown,
    });
    // full jitter with random() = 0.5: 0.5 × 500, 0.5 × 1000
    expect(delays).toEqual([250, 500]);
  });

  it('honours maxRetries: 0', async () => {
    const { fake, backend } = setup([jsonResponse({ error: 'x' }, { status: 500 })], {
      maxRetries: 0,
    });
    const { error } = await collect(backend);
    expect(fake.requests).toHaveLength(1);
    expect(error).toMatchObject({ code: 'HTTP_ERROR' });
  });

  it.each([400, 401, 404, 422])('does not retry HTTP %i', async (status) => {
    const { fake, backend, delays } = setup([jsonResponse({ error: 'no' }, { status })]);
    const { error } = await collect(backend);
    expect(fake.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(error).toMatchObject({ code: 'HTTP_ERROR', status });
  });

  it('retries connections that never opened and reports the attempts when they all fail', async () => {
    const refused = () =>
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      });
    const { fake, backend } = setup([refused(), refused(), refused()]);
    const { error } = await collect(backend);
    expect(fake.requests).toHaveLength(3);
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      message: expect.stringContaining('(3 attempts)') as unknown,
    });
  });

  it('does not retry a connection that drops after the headers, before the first body byte', async () => {
    const dropped = bytesResponse('', {
      errorAfter: new TypeError('terminated'),
      headers: { 'content-type': 'text/event-stream' },
    });
    const { fake, backend } = setup([dropped, ok()]);
    const { error } = await collect(backend);
    expect(fake.requests).toHaveLength(1);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it('never replays a stream that has started', async () => {
    const broken = sseResponse(sseBody([chunk('partial')], { done: false }), {
      errorAfter: new TypeError('terminated'),
    });
    const { fake, backend } = setup([broken, ok()]);
    const { chunks, error } = await collect(backend);
    expect(fake.requests).toHaveLength(1);
    expect(chunks).toEqual([chunk('partial')]);
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      message: expect.stringContaining('mid-stream: terminated') as unknown,
    });
  });

  it('waits Retry-After seconds instead of the backoff', async () => {
    const { backend, delays } = setup([
      jsonResponse({ error: 'slow down' }, { status: 429, headers: { 'retry-after': '2' } }),
      ok(),
    ]);
    await collect(backend);
    expect(delays).toEqual([2000]);
  });

  it('aborts during the backoff wait with EXECUTION_CANCELLED', async () => {
    const controller = new AbortController();
    const fake = fakeFetch([jsonResponse({ error: 'busy' }, { status: 503 }), ok()]);
    const internals: FetchBackendInternals = {
      sleep: (ms, signal) => {
        controller.abort(); // the user gives up while we wait
        return sleep(ms, signal);
      },
      retryDelay: { baseMs: 60_000, random: () => 1 },
    };
    const { error } = await collect(
      createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch }, internals),
      undefined,
      controller.signal,
    );
    expect(error).toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(fake.requests).toHaveLength(1);
  });

  it('sleep rejects at once on an aborted signal', async () => {
    await expect(sleep(60_000, AbortSignal.abort())).rejects.toMatchObject({
      code: 'EXECUTION_CANCELLED',
    });
  });
});

describe('retryDelay', () => {
  const headers = (init: Record<string, string>) => new Headers(init);

  it('grows exponentially with full jitter up to the cap', () => {
    expect(
      [0, 1, 2, 3, 4, 5, 10].map((retry) => retryDelay(retry, undefined, { random: () => 0.999 })),
    ).toEqual([499, 999, 1998, 3996, 7992, 7992, 7992]);
    expect(retryDelay(3, undefined, { random: () => 0 })).toBe(0);
  });

  it('reads Retry-After as seconds, as an HTTP date, and retry-after-ms', () => {
    const now = () => Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': '1.5' }))).toBe(1500);
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(
      5000,
    );
    expect(retryAfterMs(headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after-ms': '120', 'retry-after': '9' }))).toBe(120);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });

  it('caps Retry-After', () => {
    expect(retryDelay(0, headers({ 'retry-after': '3600' }))).toBe(60_000);
    expect(retryDelay(0, headers({ 'retry-after': '3600' }), { maxRetryAfterMs: 10_000 })).toBe(
      10_000,
    );
  });
});
