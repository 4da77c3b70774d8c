import { callFromJson, callsFromJsonArray, jsonExtent, parseJson, skipSpace } from './json-call.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

/** IBM Granite 3.x: `<|tool_call|>[{"name": …, "arguments": {…}}, …]` (or one object). */
export const graniteDialect: TaggedDialect = {
  openers: ['<|tool_call|>'],
  end(body: string): BlockEnd {
    const start = skipSpace(body, 0);
    if (start === body.length) return 'more';
    const end = jsonExtent(body, start);
    if (end === 'incomplete') return 'more';
    return end === 'invalid' ? 'not' : end;
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const trimmed = body.trim();
    if (trimmed.startsWith('[')) return callsFromJsonArray(trimmed, toolNames);
    const call = callFromJson(parseJson(trimmed), toolNames);
    return call === undefined ? undefined : [call];
  },
};
