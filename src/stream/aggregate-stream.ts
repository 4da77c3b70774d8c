import { AgentError, isAgentError } from '../errors/agent-error.js';
import type { AssistantTurn, StreamEvent } from './assistant-turn.js';
import { type AggregateOptions, ChunkAggregator } from './chunk-aggregator.js';
import { toStreamError } from './to-stream-error.js';

export type { AggregateOptions } from './chunk-aggregator.js';
export type { AssistantTurn, StreamEvent } from './assistant-turn.js';

/**
 * Turns chat-completion chunks from any source (our fetch transport, an `openai` client,
 * a WebLLM engine, the scripted backend) into one assistant turn.
 *
 * Yields each new text and reasoning delta as it arrives (never repeated), then — after
 * the finish — every tool call in call order: `tool_use` for a valid call,
 * `tool_use_error` for one that must not run. Returns the {@link AssistantTurn}.
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
export async function* aggregateStream(
  chunks: AsyncIterable<unknown>,
  options: AggregateOptions = {},
): AsyncGenerator<StreamEvent, AssistantTurn> {
  const aggregator = new ChunkAggregator(options);
  const signal = options.signal;
  try {
    if (signal !== undefined && isAborted(signal)) throw cancelled(signal);
    for await (const chunk of chunks) {
      const events = aggregator.push(chunk);
      for (const event of events) yield event;
      if (signal !== undefined && isAborted(signal)) throw cancelled(signal);
      // Nothing after [DONE] is ours; leaving the loop also releases the HTTP body.
      if (aggregator.sawDone) break;
    }
  } catch (error) {
    for (const event of aggregator.flush()) yield event;
    // A source may report an abort in its own way; the signal says what happened.
    throw signal !== undefined && isAborted(signal) && !isAgentError(error)
      ? cancelled(signal)
      : toStreamError(error);
  }
  if (!aggregator.complete) {
    for (const event of aggregator.flush()) yield event;
    const { text, reasoning } = aggregator.partial;
    throw new AgentError(
      'STREAM_TRUNCATED',
      `The response stream ended without [DONE] or a finish reason after ${text.length} characters of text and ${reasoning.length} of reasoning: the connection was probably cut.`,
      { context: { textLength: text.length, reasoningLength: reasoning.length } },
    );
  }
  const { events, turn } = aggregator.end();
  for (const event of events) yield event;
  return turn;
}

function cancelled(signal: AbortSignal): AgentError {
  return new AgentError(
    'EXECUTION_CANCELLED',
    'The response stream was cancelled before it finished.',
    {
      cause: signal.reason,
    },
  );
}

/** Read through a call: TypeScript would otherwise keep `aborted` narrowed across awaits. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}
