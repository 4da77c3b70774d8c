import { closingMarkerEnd } from './closing-marker.js';
import { callFromJson, namePrefixViability, parseJson } from './json-call.js';
import { parseQwen3CoderCall } from './qwen3-coder-call.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

const OPENER = '<function=';
const CLOSE = ['</function>'];

/**
 * A call that starts at `<function=` with no `<tool_call>` around it: Qwen3-Coder (and
 * Qwen3-Coder-Next) sometimes leave the wrapper out — `<function=NAME><parameter=KEY>VALUE
 * </parameter></function>`; Llama 3.1's custom-tool form `<function=NAME>{…}</function>` has
 * a JSON body. Checked against vLLM `qwen3_coder` / `qwen3xml` and `llama3_json`.
 */
export const qwen3CoderBareDialect: TaggedDialect = {
  openers: [OPENER],
  end(body: string, { scanned, toolNames }: BlockContext): BlockEnd {
    const name = /^[^>\s]*/.exec(body)?.[0] ?? '';
    if (name === body) return namePrefixViability(name, toolNames) === 'no' ? 'not' : 'more';
    if (!toolNames.has(name) || body[name.length] !== '>') return 'not';
    return closingMarkerEnd(body, scanned, CLOSE);
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const json = /^([^>\s]+)>\s*(\{[\s\S]*\})\s*(?:<\/function>)?\s*$/.exec(body);
    if (json !== null) {
      const args = parseJson(json[2] ?? '');
      const call = callFromJson({ name: json[1], arguments: args }, toolNames);
      return call === undefined || args === undefined ? undefined : [call];
    }
    const call = parseQwen3CoderCall(OPENER + body.trimEnd(), toolNames);
    return call === undefined ? undefined : [call];
  },
};
