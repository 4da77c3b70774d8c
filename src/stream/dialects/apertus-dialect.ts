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
 * of single-key objects. Checked against vLLM `apertus`.
 */
export const apertusDialect: TaggedDialect = {
  openers: ['<|tools_prefix|>'],
  end(body: string, { scanned }: BlockContext): BlockEnd {
    return expectPrefix(body, '[') ?? closingMarkerEnd(body, scanned, CLOSE);
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const value = parseJson(withoutCloser(body, CLOSE).trim());
    if (!Array.isArray(value) || value.length === 0) return undefined;
    const calls: TextToolCall[] = [];
    for (const element of value as unknown[]) {
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
