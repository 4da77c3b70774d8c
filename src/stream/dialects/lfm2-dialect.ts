import { expectPrefix } from './closing-marker.js';
import { callFromJson, parseJson } from './json-call.js';
import { parsePythonCalls } from './python-calls.js';
import { isRecord } from '../../types/is-record.js';
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
 * The JSON list llama.cpp's `lfm2` format asks for is read too:
 * `[{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "call_1"}]`. The template
 * writes the answer straight after `<|tool_call_end|>`, so prose there does not make the
 * calls quoted. Checked against vLLM `lfm2` (which drops text through the last orphan end
 * token) and llama.cpp `common/chat-parsers/lfm2.cpp`.
 */
export const lfm2Dialect: TaggedDialect = {
  openers: ['<|tool_call_start|>'],
  sameLine: 'text-after',
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
    const calls = (first === -1 ? body : body.slice(0, first)).trim();
    return /^\[\s*\{/.test(calls)
      ? jsonCalls(calls, toolNames)
      : parsePythonCalls(calls, toolNames, true);
  },
};

/** `[{"name", "arguments", "id"?}, …]`, each a registered tool's call. */
function jsonCalls(text: string, toolNames: ReadonlySet<string>): TextToolCall[] | undefined {
  const value = parseJson(text);
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const calls: TextToolCall[] = [];
  for (const element of value as unknown[]) {
    const call = callFromJson(element, toolNames);
    if (call === undefined) return undefined;
    const id = isRecord(element) ? element.id : undefined;
    calls.push(typeof id === 'string' && id !== '' ? { ...call, id } : call);
  }
  return calls;
}
