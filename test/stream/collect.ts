/**
 * Test helpers for the aggregator: build chunks tersely and run a stream to its end.
 */
import type { AgentError } from '../../src/errors/agent-error.js';
import {
  type AggregateOptions,
  type AssistantTurn,
  aggregateStream,
  type StreamEvent,
} from '../../src/stream/aggregate-stream.js';
import { STREAM_DONE } from '../../src/types/chat-request.js';

/** What running a stream to its end produced. */
export interface Collected {
  events: StreamEvent[];
  turn: AssistantTurn | undefined;
  error: AgentError | undefined;
}

/** Async-iterates `chunks` (yielding once per chunk, as a network source does). */
export async function* fromArray(chunks: readonly unknown[]): AsyncGenerator<unknown> {
  for (const chunk of chunks) {
    await Promise.resolve();
    yield chunk;
  }
}

/** Runs `aggregateStream` over the chunks and collects every event, the turn or the error. */
export async function collect(
  chunks: readonly unknown[] | AsyncIterable<unknown>,
  options?: AggregateOptions,
): Promise<Collected> {
  const source = Array.isArray(chunks) ? fromArray(chunks) : (chunks as AsyncIterable<unknown>); // array checked above
  const events: StreamEvent[] = [];
  const stream = aggregateStream(source, options);
  try {
    for (;;) {
      const step = await stream.next();
      if (step.done === true) return { events, turn: step.value, error: undefined };
      events.push(step.value);
    }
  } catch (error) {
    return { events, turn: undefined, error: error as AgentError }; // asserted by each test
  }
}

/** A chat-completion chunk with one choice (index 0). */
export function chunk(
  delta: Record<string, unknown> | undefined,
  finishReason: string | null = null,
  extra: Record<string, unknown> = {},
): unknown {
  const choice: Record<string, unknown> = { index: 0, finish_reason: finishReason };
  if (delta !== undefined) choice.delta = delta;
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [choice],
    ...extra,
  };
}

/** Text deltas as chunks, then a finish chunk and `[DONE]`. */
export function textStream(pieces: readonly string[], finishReason = 'stop'): unknown[] {
  return [
    chunk({ role: 'assistant' }),
    ...pieces.map((content) => chunk({ content })),
    chunk({}, finishReason),
    STREAM_DONE,
  ];
}

/** A text event. */
export const text = (value: string): StreamEvent => ({ type: 'text', text: value });
/** A reasoning event. */
export const reasoning = (value: string): StreamEvent => ({ type: 'reasoning', text: value });

export { STREAM_DONE };

/**
 * The answer and reasoning a UI shows after applying `events` in order: `text_was_reasoning`
 * moves what was shown as answer into reasoning. Throws when a marker does not name exactly
 * the text shown so far (the marker would then move the wrong text).
 */
export function replay(events: readonly StreamEvent[]): { text: string; reasoning: string } {
  let text = '';
  let reasoning = '';
  for (const event of events) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'reasoning') reasoning += event.text;
    else if (event.type === 'text_was_reasoning') {
      if (event.text !== text)
        throw new Error(
          `text_was_reasoning names ${JSON.stringify(event.text)}, shown: ${JSON.stringify(text)}`,
        );
      reasoning += text;
      text = '';
    }
  }
  return { text, reasoning };
}
