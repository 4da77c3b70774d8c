import { AggregateStreamIterator } from './aggregate-stream-iterator.js';
import type { AssistantTurn, StreamEvent } from './assistant-turn.js';
import type { AggregateOptions } from './chunk-aggregator.js';

export type { AggregateOptions } from './chunk-aggregator.js';
export type { ToolCallDelta } from './tool-call-accumulator.js';
export type { AssistantTurn, StreamEvent } from './assistant-turn.js';

/**
 * Turns chat-completion chunks from any source (our fetch transport, an `openai` client,
 * a WebLLM engine, the scripted backend) into one assistant turn.
 *
 * Yields each new text and reasoning delta as it arrives (never repeated; from our fetch
 * transport, the deltas that arrived in one network read come as one event), then — after
 * the finish — every tool call in call order: `tool_use` for a valid call,
 * `tool_use_error` for one that must not run. Returns the {@link AssistantTurn}. When a
 * lone `</think>` shows that the text so far was reasoning (Qwen3 templates), it yields
 * `text_was_reasoning` with that text, in order, before the reasoning that follows.
 *
 * The stream is complete after `STREAM_DONE` (`data: [DONE]`) or, without it, once a
 * finish reason arrived (old text-generation-webui).
 *
 * @throws {AgentError} `STREAM_TRUNCATED` when the source ends with neither (after
 * yielding the text that came); `STREAM_ERROR` for a chunk carrying `error` or a
 * non-`AgentError` thrown by the source; `EXECUTION_CANCELLED` on abort. An
 * `AgentError` thrown by the source propagates unchanged.
 *
 * @example
 * const chunks = await backend.chat.completions.create(request, { signal });
 * const stream = aggregateStream(chunks, { toolNames: new Set(['get_weather']), signal });
 * let step = await stream.next();
 * for (; !step.done; step = await stream.next()) render(step.value);
 * const turn = step.value; // { text, reasoning, toolCalls, invalidToolCalls, finishReason, usage, … }
 */
export function aggregateStream(
  chunks: AsyncIterable<unknown>,
  options: AggregateOptions = {},
): AsyncGenerator<StreamEvent, AssistantTurn> {
  return new AggregateStreamIterator(chunks, options);
}
