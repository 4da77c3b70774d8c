import { callFromJson, callsFromJsonArray, jsonExtent, parseJson, skipSpace } from './json-call.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

/** Phi-4-mini closes its `<|tool_call|>` block; Granite does not. */
const PHI_CLOSE = '<|/tool_call|>';

/**
 * IBM Granite 3.x: `<|tool_call|>[{"name": …, "arguments": {…}}, …]` (or one object); and
 * Phi-4-mini as llama.cpp's template prescribes it, `<|tool_call|>{…}<|/tool_call|>` (vLLM's
 * `phi4_mini_json` reads `functools[…]` instead: see `functoolsAnswer`). The block ends
 * with its JSON value, or after the `<|/tool_call|>` that follows it.
 */
export const graniteDialect: TaggedDialect = {
  openers: ['<|tool_call|>'],
  end(body: string): BlockEnd {
    const start = skipSpace(body, 0);
    if (start === body.length) return 'more';
    const end = jsonExtent(body, start);
    if (end === 'incomplete') return 'more';
    if (end === 'invalid') return 'not';
    const after = skipSpace(body, end);
    const rest = body.slice(after, after + PHI_CLOSE.length);
    // Wait for what follows the value: Phi-4-mini's closing tag, or anything else.
    if (rest.length < PHI_CLOSE.length && PHI_CLOSE.startsWith(rest)) return 'more';
    return rest === PHI_CLOSE ? after + PHI_CLOSE.length : end;
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    let trimmed = body.trim();
    if (trimmed.endsWith(PHI_CLOSE)) trimmed = trimmed.slice(0, -PHI_CLOSE.length).trim();
    if (trimmed.startsWith('[')) return callsFromJsonArray(trimmed, toolNames);
    const call = callFromJson(parseJson(trimmed), toolNames);
    return call === undefined ? undefined : [call];
  },
};
