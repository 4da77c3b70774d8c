import { closingMarkerEnd, expectPrefix, withoutCloser } from './closing-marker.js';
import { parsePythonCalls } from './python-calls.js';
import { parseJson } from './json-call.js';
import { parseQwen3CoderCall } from './qwen3-coder-call.js';
import { qwen3CoderBareDialect } from './qwen3-coder-dialect.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

const CLOSE = ['</seed:tool_call>'];
const FUNCTION = /<function=[\s\S]*?(?:<\/function>|$)/g;

/**
 * ByteDance Seed-OSS: `<seed:tool_call><function=NAME><parameter=KEY>VALUE</parameter>
 * </function></seed:tool_call>` (one block per call; several `<function=…>` in one are read
 * too). Values are raw; a dict or list the model wrote in Python's `str()` form
 * (`{'a': 1}`) is passed on as JSON text, so the schema-driven repair can type it.
 * Checked against vLLM `seed_oss`.
 */
export const seedOssDialect: TaggedDialect = {
  openers: ['<seed:tool_call>'],
  end(body: string, { scanned }: BlockContext): BlockEnd {
    return expectPrefix(body, '<function=') ?? closingMarkerEnd(body, scanned, CLOSE);
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const inner = withoutCloser(body, CLOSE);
    const calls: TextToolCall[] = [];
    let rest = inner;
    for (const [whole] of inner.matchAll(FUNCTION)) {
      const call = parseQwen3CoderCall(whole.trim(), toolNames);
      if (call === undefined) return undefined;
      calls.push(withSeedValues(call));
      rest = rest.replace(whole, '');
    }
    return calls.length > 0 && rest.trim() === '' ? calls : undefined;
  },
};

/**
 * Seed-OSS's `<function=…>` with its `<seed:tool_call>` wrapper stripped (a server decoding
 * with `skip_special_tokens`): read like Qwen3-Coder's bare form, values as Seed writes them.
 * Only where the model is known to be Seed-OSS: otherwise `<function=` reads as Qwen's.
 */
export const seedOssBareDialect: TaggedDialect = {
  openers: qwen3CoderBareDialect.openers,
  end: (body, context) => qwen3CoderBareDialect.end(body, context),
  parse(body, context) {
    return qwen3CoderBareDialect.parse(body, context)?.map(withSeedValues);
  },
};

function withSeedValues(call: TextToolCall): TextToolCall {
  if (typeof call.arguments === 'string') return call;
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.arguments))
    args[key] = typeof value === 'string' ? pythonLiteralAsJson(value) : value;
  return { ...call, arguments: args };
}

/** `{'a': 1}` → `{"a":1}`; any other text (JSON included) is left as it is. */
function pythonLiteralAsJson(value: string): string {
  const trimmed = value.trim();
  if (!/^[[{]/.test(trimmed) || parseJson(trimmed) !== undefined) return value;
  const read = parsePythonCalls(`f(v=${trimmed})`, new Set(['f']), false);
  const literal = read?.[0]?.arguments;
  return typeof literal === 'object' ? JSON.stringify(literal.v) : value;
}
