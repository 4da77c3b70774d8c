import { callFromJson, parseJson, skipSpace } from './json-call.js';
import { glmCallStart, parseGlmCall } from './glm-call.js';
import { parseQwen3CoderCalls } from './qwen3-coder-call.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

const CLOSE = '</tool_call>';
const FUNCTION = '<function=';

/**
 * Hermes / Qwen 2.5–3: `<tool_call>{"name": …, "arguments": …}</tool_call>` (or `parameters`,
 * as some fine-tunes write it), Qwen3-Coder's (and Qwen3.5 / 3.6's) XML body
 * `<tool_call><function=NAME><parameter=KEY>VALUE</parameter>…</function></tool_call>` (several
 * `<function=…>` in one block too, as vLLM's qwen3_coder reads them), and
 * GLM-4.5–5's `<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>`.
 * A block left unclosed at the end still counts (Qwen may stop at `</tool_call>`).
 */
export const hermesDialect: TaggedDialect = {
  openers: ['<tool_call>'],
  end(body: string, { scanned, toolNames }: BlockContext): BlockEnd {
    const start = skipSpace(body, 0);
    if (start < body.length && body[start] !== '{') {
      const head = body.slice(start, start + FUNCTION.length);
      // Prose that mentions the tag: released now rather than at the end.
      if (!FUNCTION.startsWith(head) && !head.startsWith(FUNCTION)) {
        const glm = glmCallStart(body.slice(start), toolNames);
        if (glm !== undefined) return glm;
      }
    }
    const close = body.indexOf(CLOSE, Math.max(0, scanned - CLOSE.length + 1));
    return close === -1 ? 'more' : close + CLOSE.length;
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const inner = body.endsWith(CLOSE) ? body.slice(0, -CLOSE.length) : body;
    const trimmed = inner.trim();
    if (trimmed.startsWith(FUNCTION)) return parseQwen3CoderCalls(trimmed, toolNames);
    const call = trimmed.startsWith('{')
      ? callFromJson(parseJson(trimmed), toolNames)
      : parseGlmCall(trimmed, toolNames);
    return call === undefined ? undefined : [call];
  },
};
