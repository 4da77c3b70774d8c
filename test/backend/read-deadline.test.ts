import { describe, expect, it } from 'vitest';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { STREAM_DONE } from '../../src/types/chat-request.js';
import { fakeFetch, sseBody } from '../support/fake-fetch.js';
import { chatRequest } from './collect.js';

const URL_V1 = 'http://localhost:1234/v1';
const chunk = (content: string) => ({
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A body that hands out `parts` one per read, each after `gapMs`. */
function spacedResponse(parts: string[], gapMs: number): Response {
  const encoder = new TextEncoder();
  let index = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await pause(gapMs);
        const part = parts[index++];
        if (part === undefined) controller.close();
        else controller.enqueue(encoder.encode(part));
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

describe('fetch backend: the read deadline', () => {
  it('measures silence per read, not the whole stream: reads spaced under the timeout never time out', async () => {
    // 26 reads 20 ms apart outlast the 400 ms timeout; the one timer must keep moving its
    // deadline rather than fire. (A wide margin: a loaded machine delays timers by tens of ms.)
    const pieces = Array.from({ length: 25 }, (_, index) =>
      sseBody([chunk(String(index))], { done: false }),
    );
    const fake = fakeFetch([spacedResponse([...pieces, 'data: [DONE]\n\n'], 20)]);
    const backend = createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch, timeout: 400 });

    const seen: unknown[] = [];
    for await (const item of await backend.chat.completions.create(chatRequest())) seen.push(item);

    expect(seen).toHaveLength(26);
    expect(seen.at(-1)).toBe(STREAM_DONE);
  });

  it('does not count the consumer’s own time between reads as silence', async () => {
    const pieces = [sseBody([chunk('a')], { done: false }), sseBody([chunk('b')])];
    const fake = fakeFetch([spacedResponse(pieces, 0)]);
    const backend = createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch, timeout: 20 });

    const seen: unknown[] = [];
    for await (const item of await backend.chat.completions.create(chatRequest())) {
      seen.push(item);
      if (seen.length === 1) await pause(60); // the timer fires while no read is pending
    }

    expect(seen).toEqual([chunk('a'), chunk('b'), STREAM_DONE]);
  });
});
