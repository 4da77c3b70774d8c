/**
 * Runs an SSE body through the real fetch transport (with an injected fake `fetch`) and
 * then through `aggregateStream` — the path every local-server response takes.
 */
import { expect } from 'vitest';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import type { AggregateOptions } from '../../src/stream/aggregate-stream.js';
import { ALL_DIALECTS } from '../../src/stream/dialects/index.js';
import type { ChatRequest } from '../../src/types/chat-request.js';
import { type BytesOptions, bytesResponse, fakeFetch } from '../support/fake-fetch.js';
import type { RecordedExpectation } from '../support/recorded-streams.js';
import { type Collected, collect, replay } from './collect.js';

const request: ChatRequest = {
  model: 'm',
  messages: [{ role: 'user', content: 'hi' }],
  stream: true,
};

/** Feeds `body` (cut at `splitEvery`) through transport + aggregator. */
export async function throughTransport(
  body: string | Uint8Array,
  options: AggregateOptions & Pick<BytesOptions, 'splitEvery'> = {},
): Promise<Collected> {
  const { splitEvery, ...aggregateOptions } = options;
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const response = bytesResponse(bytes, {
    headers: { 'content-type': 'text/event-stream' },
    ...(splitEvery === undefined ? {} : { splitEvery }),
  });
  const fake = fakeFetch([response]);
  const backend = createFetchBackend({
    baseURL: 'http://127.0.0.1:8080/v1',
    fetch: fake.fetch,
    maxRetries: 0,
  });
  const chunks = await backend.chat.completions.create(request);
  // Every text-form dialect, as the loop reads them.
  return collect(chunks, { dialects: ALL_DIALECTS, ...aggregateOptions });
}

/** Asserts a collected stream against a recorded `expect`. */
export function expectAggregated(collected: Collected, expected: RecordedExpectation): void {
  const { turn, error, events } = collected;
  expect(error?.code ? [error.code] : []).toEqual(expected.errors);
  const text = events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');
  const reasoning = events
    .flatMap((event) => (event.type === 'reasoning' ? [event.text] : []))
    .join('');
  if (expected.errors.length > 0) {
    expect(turn).toBeUndefined();
    expect(text).toBe(expected.text);
    expect(reasoning).toBe(expected.reasoning);
    return;
  }
  expect(turn).toBeDefined();
  if (turn === undefined) return;
  // Applied in order, the events show exactly what the turn holds; the `text` events alone
  // do too, unless the stream started in reasoning (then `text_was_reasoning` moves them).
  expect(replay(events)).toEqual({ text: turn.text, reasoning: turn.reasoning });
  if (expected.eventText === undefined) {
    expect(text).toBe(turn.text);
    expect(reasoning).toBe(turn.reasoning);
  } else {
    expect(text).toBe(expected.eventText);
  }
  expect(turn.text).toBe(expected.text);
  expect(turn.reasoning).toBe(expected.reasoning);
  expect(turn.toolCalls.map((call) => ({ name: call.name, arguments: call.input }))).toEqual(
    expected.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })),
  );
  expected.toolCalls.forEach((call, position) => {
    const id = turn.toolCalls[position]?.id;
    if (call.id === undefined) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    else expect(id).toBe(call.id);
  });
  expect(
    turn.invalidToolCalls.map((call) => ({
      name: call.name,
      code: call.code,
      ...(call.rawData === undefined ? {} : { rawData: call.rawData }),
    })),
  ).toEqual(
    (expected.invalidToolCalls ?? []).map((call) => ({
      name: call.name,
      code: call.code,
      ...(call.rawData === undefined ? {} : { rawData: call.rawData }),
    })),
  );
  expect(turn.finishReason).toBe(expected.finishReason);
  expect(turn.rawFinishReason).toBe(expected.rawFinishReason);
  expect(turn.usage).toEqual(
    expected.usage === null
      ? undefined
      : {
          promptTokens: expected.usage.prompt_tokens,
          completionTokens: expected.usage.completion_tokens,
          totalTokens: expected.usage.total_tokens,
        },
  );
  // Calls come last, in call order, after every text and reasoning event.
  const firstCall = events.findIndex(
    (event) => event.type === 'tool_use' || event.type === 'tool_use_error',
  );
  const calls = firstCall === -1 ? [] : events.slice(firstCall);
  expect(calls.every((event) => event.type === 'tool_use' || event.type === 'tool_use_error')).toBe(
    true,
  );
  expect(calls).toHaveLength(turn.toolCalls.length + turn.invalidToolCalls.length);
}
