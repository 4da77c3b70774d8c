import type {
  FinishReason,
  ReasoningBlock,
  TextBlock,
  ToolUseBlock,
  ToolUseError,
  Waiting,
} from '../types/events.js';
import type { Usage } from '../types/usage.js';

/**
 * The text this response reported so far (`text` events before this one) was reasoning: a
 * lone `</think>` arrived (Qwen3 and DeepSeek-R1 templates put `<think>` in the prompt, so
 * the output starts inside reasoning). The turn's `text` no longer contains it; a UI moves
 * what it showed as answer into reasoning. Not an `AgentEvent`: the loop hands it to
 * `AgentOptions.onTextWasReasoning`.
 */
export interface TextWasReasoning {
  type: 'text_was_reasoning';
  /** All text the earlier `text` events of this response carried, joined. */
  text: string;
}

/** What the aggregator yields while a response streams (`waiting`: a backend's waiting chunk). */
export type StreamEvent =
  TextBlock | ReasoningBlock | ToolUseBlock | ToolUseError | TextWasReasoning | Waiting;

/** One model response, aggregated: what the loop stores in history and reports in `step_end`. */
export interface AssistantTurn {
  /** Visible text: think tags and tool-call markup removed. */
  text: string;
  /** Reasoning from `reasoning_content`, `reasoning`, thinking parts or `<think>` blocks. */
  reasoning: string;
  /** Valid calls, in call order. */
  toolCalls: ToolUseBlock[];
  /**
   * Calls that must not execute (arguments that are not a JSON object, cut off by
   * `length`), each with `toolUseId`, `name` and `rawData`. The loop answers each with an
   * error result so history stays consistent.
   */
  invalidToolCalls: ToolUseError[];
  /** The finish reason; `stop` (or none) is reported as `tool_calls` when calls arrived. */
  finishReason: FinishReason;
  /** The last non-empty `finish_reason` the server sent, or `null`. */
  rawFinishReason: string | null;
  /** The server's usage (last one sent); `undefined` when it sent none (the loop estimates). */
  usage: Usage | undefined;
}
