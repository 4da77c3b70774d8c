import type {
  FinishReason,
  ReasoningBlock,
  TextBlock,
  ToolUseBlock,
  ToolUseError,
} from '../types/events.js';
import type { Usage } from '../types/usage.js';

/** What the aggregator yields while a response streams. */
export type StreamEvent = TextBlock | ReasoningBlock | ToolUseBlock | ToolUseError;

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
