import { parsePythonCalls } from './python-calls.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

const FENCE = '```';

/**
 * Gemma 3: a fenced ```` ```tool_code ```` block holding Python-style calls
 * (`get_weather(city="Paris")`, also inside `print(…)`). A fence in any other language is
 * code the model shows, never a call.
 */
export const gemmaToolCodeDialect: TaggedDialect = {
  openers: ['```tool_code'],
  end(body: string, { scanned }: BlockContext): BlockEnd {
    const close = body.indexOf(FENCE, Math.max(0, scanned - FENCE.length + 1));
    return close === -1 ? 'more' : close + FENCE.length;
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const code = body.endsWith(FENCE) ? body.slice(0, -FENCE.length) : body;
    return parsePythonCalls(code, toolNames, false);
  },
};
