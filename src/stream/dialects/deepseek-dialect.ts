import { isRecord } from '../../types/is-record.js';
import { parseJson, skipSpace } from './json-call.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

const CALLS_END = '<｜tool▁calls▁end｜>';
const CALL_BEGIN = '<｜tool▁call▁begin｜>';
const CALL_END = '<｜tool▁call▁end｜>';
const SEP = '<｜tool▁sep｜>';

/**
 * DeepSeek V3 / R1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME`
 * + a fenced JSON block + `<｜tool▁call▁end｜>`, repeated, then `<｜tool▁calls▁end｜>`;
 * V3.1 writes `NAME<｜tool▁sep｜>{…}` without the `function` and the fence.
 */
export const deepseekDialect: TaggedDialect = {
  openers: ['<｜tool▁calls▁begin｜>'],
  end(body: string, { scanned }: BlockContext): BlockEnd {
    const start = skipSpace(body, 0);
    const head = body.slice(start, start + CALL_BEGIN.length);
    if (!CALL_BEGIN.startsWith(head) && !head.startsWith(CALL_BEGIN)) return 'not';
    const close = body.indexOf(CALLS_END, Math.max(0, scanned - CALLS_END.length + 1));
    return close === -1 ? 'more' : close + CALLS_END.length;
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const inner = body.endsWith(CALLS_END) ? body.slice(0, -CALLS_END.length) : body;
    const parts = inner.split(CALL_BEGIN).slice(1);
    if (parts.length === 0 || inner.split(CALL_BEGIN)[0]?.trim() !== '') return undefined;
    const calls: TextToolCall[] = [];
    for (const part of parts) {
      const call = parseCall(part.split(CALL_END)[0] ?? '', toolNames);
      if (call === undefined) return undefined;
      calls.push(call);
    }
    return calls;
  },
};

function parseCall(text: string, toolNames: ReadonlySet<string>): TextToolCall | undefined {
  const [before = '', after, ...extra] = text.split(SEP);
  if (after === undefined || extra.length > 0) return undefined;
  let name: string;
  let json: string;
  if (before.trim() === 'function') {
    // NAME, a new line, then ```json … ``` (or the bare JSON).
    const match = /^\s*([^\s`]+)\s*(?:```(?:json)?\s*([\s\S]*?)\s*```|([\s\S]*))\s*$/.exec(after);
    name = match?.[1] ?? '';
    json = match?.[2] ?? match?.[3] ?? '';
  } else {
    name = before.trim();
    json = after;
  }
  const args = parseJson(json.trim());
  if (!toolNames.has(name) || !isRecord(args)) return undefined;
  return { name, arguments: args };
}
