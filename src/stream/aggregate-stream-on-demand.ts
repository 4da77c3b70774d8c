import type { AggregateOptions, AssistantTurn, StreamEvent } from './aggregate-stream.js';

/**
 * Turns chat-completion chunks from any source (an `openai` client, a WebLLM engine, the
 * scripted backend, our fetch transport) into one assistant turn: the public face of the
 * aggregator the loop uses, which loads on the first call (the loop loads it with its first
 * model call). Yields each new text and reasoning delta, then every tool call in call order
 * (`tool_use`, or `tool_use_error` for one that must not run); returns the turn.
 *
 * @throws {AgentError} `STREAM_TRUNCATED`, `STREAM_ERROR`, `EXECUTION_CANCELLED`, as
 *   `aggregate-stream.ts` describes; an `AgentError` thrown by the source propagates unchanged.
 *
 * @example
 * const chunks = await backend.chat.completions.create(request, { signal });
 * const stream = aggregateStream(chunks, { toolNames: new Set(['get_weather']), signal });
 * let step = await stream.next();
 * for (; !step.done; step = await stream.next()) render(step.value);
 * const turn = step.value; // { text, reasoning, toolCalls, invalidToolCalls, finishReason, usage, … }
 */
export async function* aggregateStream(
  chunks: AsyncIterable<unknown>,
  options: AggregateOptions = {},
): AsyncGenerator<StreamEvent, AssistantTurn> {
  const { aggregateStream: aggregate } = await import('./aggregate-stream.js');
  return yield* aggregate(chunks, options);
}
