import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '../../src/loop/client.js';
import type { AgentEvent, Waiting } from '../../src/types/events.js';
import { collect } from '../support/collect.js';
import { fakeFetch, jsonResponse, sseBody, sseResponse } from '../support/fake-fetch.js';

// While no token has come, the loop says what the wait is: `waiting` events with the time
// since the call began and, where the server tells, the phase (Ollama: loading the model or
// reading the prompt; llama.cpp: prompt-processing progress).
const chunk = (content: string) => ({
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});
const finish = (extra: Record<string, unknown> = {}) => ({
  choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
  ...extra,
});
const waits = (events: AgentEvent[]) =>
  events.filter((event): event is Waiting => event.type === 'waiting');

afterEach(() => {
  vi.useRealTimers();
});

/** A body the test feeds frame by frame. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(stream, { headers: { 'content-type': 'text/event-stream' } }),
    send: (value: unknown) =>
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`)),
    end: () => {
      controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      controller.close();
    },
  };
}

describe('waiting events', () => {
  it('a fast answer yields none', async () => {
    const fake = fakeFetch([sseResponse(sseBody([chunk('Hi'), finish()]))]);
    const client = new Client({
      model: 'm',
      baseURL: 'http://localhost:8000/v1',
      fetch: fake.fetch,
      contextWindow: 8192,
    });
    const events = await collect(client.run('Hello'));
    expect(waits(events)).toEqual([]);
  });

  it('Ollama: says the model is loading, every second, until the first token', async () => {
    vi.useFakeTimers();
    const fake = fakeFetch([
      () =>
        new Promise<Response>((resolve) =>
          setTimeout(() => resolve(sseResponse(sseBody([chunk('Hi'), finish()]))), 4_500),
        ),
      jsonResponse({ models: [] }), // GET /api/ps at 1 s: not in memory yet
      jsonResponse({ models: [{ name: 'qwen3:30b', model: 'qwen3:30b' }] }), // at 6 s: never asked
    ]);
    const client = new Client({
      model: 'qwen3:30b',
      baseURL: 'http://localhost:11434/v1',
      fetch: fake.fetch,
      contextWindow: 8192,
    });
    const run = collect(client.run('Hello'));
    await vi.waitFor(() => {
      expect(fake.requests).toHaveLength(1);
    });
    await vi.advanceTimersByTimeAsync(1_000);
    // The /api/ps watch loads from disk on the first long wait.
    await vi.waitFor(() => {
      expect(fake.requests).toHaveLength(2);
    });
    await vi.advanceTimersByTimeAsync(4_000);
    const events = await run;
    const seen = waits(events);
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.at(-1)).toMatchObject({ phase: 'loading_model', model: 'qwen3:30b' });
    const elapsed = seen.map((event) => event.elapsedMs);
    expect(elapsed).toEqual([...elapsed].sort((a, b) => a - b));
    expect(elapsed.at(-1)).toBeGreaterThanOrEqual(4_000);
    // Every waiting event comes before the first token, none after.
    const firstText = events.findIndex((event) => event.type === 'text');
    const lastWaiting = events.map((event) => event.type).lastIndexOf('waiting');
    expect(lastWaiting).toBeLessThan(firstText);
    expect(
      fake.requests.map((request) => `${request.method} ${new URL(request.url).pathname}`),
    ).toEqual(['POST /v1/chat/completions', 'GET /api/ps']);
  });

  it('llama.cpp: once identified, asks for prompt progress and reports it', async () => {
    vi.useFakeTimers();
    const second = controlledBody();
    const fake = fakeFetch([
      // The first answer shows llama.cpp's `timings`.
      sseResponse(sseBody([chunk('One'), finish({ timings: { prompt_n: 5, predicted_n: 1 } })])),
      () => second.response,
    ]);
    const client = new Client({
      model: 'qwen3-30b',
      baseURL: 'http://localhost:8080/v1',
      fetch: fake.fetch,
      contextWindow: 32_768,
    });
    await collect(client.run('First'));
    expect(fake.requests[0]?.body).not.toHaveProperty('return_progress');

    const run = collect(client.run('Second'));
    await vi.waitFor(() => {
      expect(fake.requests).toHaveLength(2);
    });
    expect(fake.requests[1]?.body).toMatchObject({ return_progress: true });
    second.send({
      choices: [],
      prompt_progress: { total: 1000, cache: 200, processed: 560, time_ms: 900 },
    });
    await vi.advanceTimersByTimeAsync(1_300);
    second.send({
      choices: [],
      prompt_progress: { total: 1000, cache: 200, processed: 1000, time_ms: 2000 },
    });
    await vi.advanceTimersByTimeAsync(1_000);
    second.send(chunk('Two'));
    second.send(finish());
    second.end();
    await vi.advanceTimersByTimeAsync(10);
    const events = await run;
    const progress = waits(events).map((event) => [event.phase, event.progress]);
    expect(progress).toContainEqual(['reading_prompt', 0.45]);
    expect(progress.at(-1)).toEqual(['reading_prompt', 1]);
    expect(events.filter((event) => event.type === 'text')).toMatchObject([{ text: 'Two' }]);
  });
});
