// The bounds on what one model response can make the loop do and store (issue 27). Apart from
// agent-options.ts, so that the defaults are named once, beside the code that applies them.

/**
 * Most tool calls of one model response that run (`AgentOptions.maxToolCallsPerResponse`): the
 * others get an error result the model reads (`TOOL_DENIED`). A model looping on one call, or an
 * injected page asking for hundreds, cannot flood the page with tools. 32 is more than any real
 * model's parallel calls we have recorded (Qwen3 and GPT-4o: up to 10).
 */
export const DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE = 32;

/**
 * Longest tool result, in characters, that history keeps and requests send
 * (`AgentOptions.maxToolResultCharacters`): a longer one is cut, with a marker saying how much was
 * left out. About 25,000 tokens, beyond most local models' context windows anyway. The
 * `tool_result` event still carries the whole value, for a UI that wants it.
 */
export const DEFAULT_MAX_TOOL_RESULT_CHARACTERS = 100_000;

/** `text` cut to `max` characters, with a marker the model and a reader understand. */
export function truncatedResult(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… truncated: the tool returned ${text.length.toLocaleString('en')} characters; the first ${max.toLocaleString('en')} are shown]`;
}
