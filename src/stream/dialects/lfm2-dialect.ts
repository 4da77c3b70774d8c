import { expectPrefix } from './closing-marker.js';
import { parsePythonCalls } from './python-calls.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

const END = '<|tool_call_end|>';

/**
 * Liquid LFM2 / LFM2.5: `<|tool_call_start|>[get_weather(city="Paris"), get_time(tz='CET')]
 * <|tool_call_end|>`, pythonic (single quotes, JSON `true`/`false`/`null` and dict arguments
 * as JSON too). LFM2 often repeats the call body after `<|tool_call_end|>` and closes it
 * again: that echo is part of the block, so the calls run once and the echo never shows.
 * Checked against vLLM `lfm2` (which drops text through the last orphan end token).
 */
export const lfm2Dialect: TaggedDialect = {
  openers: ['<|tool_call_start|>'],
  end(body: string): BlockEnd {
    const early = expectPrefix(body, '[');
    if (early !== undefined) return early;
    const first = body.indexOf(END);
    if (first === -1) return 'more';
    const end = first + END.length;
    const calls = body.slice(0, first).trim();
    const after = body.slice(end);
    const echo = after.trimStart();
    // Wait for what follows: an echo of the calls, or the answer.
    if (echo === '' || calls.startsWith(echo)) return 'more';
    if (!echo.startsWith(calls)) return end;
    const close = echo.slice(calls.length).trimStart();
    if (close.startsWith(END))
      return body.length - echo.length + echo.indexOf(END, calls.length) + END.length;
    return END.startsWith(close) ? 'more' : end;
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const first = body.indexOf(END);
    return parsePythonCalls((first === -1 ? body : body.slice(0, first)).trim(), toolNames, true);
  },
};
