import { isRecord } from '../../types/is-record.js';
import { closingMarkerEnd, expectPrefix, withoutCloser } from './closing-marker.js';
import { parseJson } from './json-call.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

const CLOSE = ['<|tools_suffix|>'];

/**
 * Swiss AI Apertus: `<|tools_prefix|>[{"NAME": {…arguments}}, …]<|tools_suffix|>`, an array
 * of single-key objects; one call may come as the bare object (vLLM wraps it in a list).
 * Checked against vLLM `apertus` and llama.cpp's Apertus parser.
 */
export const apertusDialect: TaggedDialect = {
  openers: ['<|tools_prefix|>'],
  end(body: string, { scanned }: BlockContext): BlockEnd {
    const opening = expectPrefix(body, '[') === 'not' ? expectPrefix(body, '{') : undefined;
    return opening ?? closingMarkerEnd(body, scanned, CLOSE);
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const value = parseJson(withoutCloser(body, CLOSE).trim());
    const list: unknown = isRecord(value) ? [value] : value;
    if (!Array.isArray(list) || list.length === 0) return undefined;
    const calls: TextToolCall[] = [];
    for (const element of list as unknown[]) {
      if (!isRecord(element)) return undefined;
      const entries = Object.entries(element);
      const [name, args] = entries[0] ?? [];
      if (entries.length !== 1 || name === undefined || !toolNames.has(name)) return undefined;
      if (!isRecord(args)) return undefined;
      calls.push({ name, arguments: args });
    }
    return calls;
  },
};
