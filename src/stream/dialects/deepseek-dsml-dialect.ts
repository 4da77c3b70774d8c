import { closingMarkerEnd, expectPrefix, withoutCloser } from './closing-marker.js';
import { parseInvokeCalls } from './invoke-calls.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

const DSML = '｜DSML｜';
const CLOSE = [`</${DSML}function_calls>`, `</${DSML}tool_calls>`];

/**
 * DeepSeek V3.2's DSML: `<｜DSML｜function_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter
 * name="KEY" string="true">VALUE</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>`
 * (`string="true"`: raw text; `"false"`: JSON); V4 names the block `<｜DSML｜tool_calls>`.
 * Checked against vLLM `deepseekv32` / `deepseekv4` and sglang `deepseekv32_detector`.
 */
export const deepseekDsmlDialect: TaggedDialect = {
  openers: [`<${DSML}function_calls>`, `<${DSML}tool_calls>`],
  end(body: string, { scanned }: BlockContext): BlockEnd {
    return expectPrefix(body, `<${DSML}invoke name="`) ?? closingMarkerEnd(body, scanned, CLOSE);
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    return parseInvokeCalls(withoutCloser(body, CLOSE), DSML, toolNames);
  },
};
