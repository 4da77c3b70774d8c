import { closingMarkerEnd, expectPrefix, withoutCloser } from './closing-marker.js';
import { parseInvokeCalls } from './invoke-calls.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

const CLOSE = ['</minimax:tool_call>'];

/**
 * MiniMax M2: `<minimax:tool_call><invoke name="NAME"><parameter name="KEY">VALUE</parameter>
 * </invoke>…</minimax:tool_call>`, several `<invoke>` in one block; names double-, single- or
 * un-quoted, a parameter left unclosed ending at the next; values raw (typed by the tool's
 * schema, `anyOf` included, in the loop). Checked against vLLM `minimax_m2`
 * (`vllm/frontend/processing/parser/minimax_m2.py`).
 */
export const minimaxM2Dialect: TaggedDialect = {
  openers: ['<minimax:tool_call>'],
  end(body: string, { scanned }: BlockContext): BlockEnd {
    return expectPrefix(body, '<invoke name=') ?? closingMarkerEnd(body, scanned, CLOSE);
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    return parseInvokeCalls(withoutCloser(body, CLOSE), '', toolNames);
  },
};
