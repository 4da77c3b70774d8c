import { isRecord } from '../types/is-record.js';
import { jsonExtent, parseJson, skipSpace } from './dialects/json-call.js';
import type { TextToolCall } from './dialects/text-tool-call-dialect.js';

/**
 * Splits arguments that hold several calls glued together — vLLM's Mistral parser, when
 * leading content and several `[TOOL_CALLS]` segments arrive in one delta, emits one call
 * whose arguments are `{"a": 3.5, "b": 4}multiply{"a": 3, "b": 6}` — into the first call's
 * arguments and the calls after it. Only when every glued name is a registered tool and
 * every part is a JSON object; otherwise `undefined` (the arguments stay invalid).
 */
export function splitGluedCalls(
  text: string,
  toolNames: ReadonlySet<string>,
): [Record<string, unknown>, ...TextToolCall[]] | undefined {
  const start = skipSpace(text, 0);
  const firstEnd = jsonExtent(text, start);
  if (typeof firstEnd !== 'number' || skipSpace(text, firstEnd) === text.length) return undefined;
  const first = parseJson(text.slice(start, firstEnd));
  if (!isRecord(first)) return undefined;
  const calls: TextToolCall[] = [];
  let index = firstEnd;
  while ((index = skipSpace(text, index)) < text.length) {
    const name = /^[A-Za-z0-9_-]+/.exec(text.slice(index))?.[0];
    if (name === undefined || !toolNames.has(name)) return undefined;
    const open = skipSpace(text, index + name.length);
    const end = jsonExtent(text, open);
    if (typeof end !== 'number') return undefined;
    const args = parseJson(text.slice(open, end));
    if (!isRecord(args)) return undefined;
    calls.push({ name, arguments: args });
    index = end;
  }
  return [first, ...calls];
}
