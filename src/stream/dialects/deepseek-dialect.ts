import { isRecord } from '../../types/is-record.js';
import { namePrefixViability, parseJson, skipSpace } from './json-call.js';
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
 * V3.1 writes `NAME<｜tool▁sep｜>{…}` without the `function` and the fence. As llama.cpp's
 * V3.1 parser does, the opener's misspellings (`<｜tool calls begin｜>`, …) are read, and
 * a call may leave out its `<｜tool▁call▁begin｜>`. Checked against vLLM `deepseek_v31`.
 */
export const deepseekDialect: TaggedDialect = {
  openers: [
    '<｜tool▁calls▁begin｜>',
    '<｜tool_calls_begin｜>',
    '<｜tool calls begin｜>',
    '<｜tool\\_calls\\_begin｜>',
    '<｜tool▁calls｜>',
  ],
  end(body: string, { scanned, toolNames }: BlockContext): BlockEnd {
    const start = skipSpace(body, 0);
    if (!mayStartCall(body.slice(start), toolNames)) return 'not';
    const close = body.indexOf(CALLS_END, Math.max(0, scanned - CALLS_END.length + 1));
    return close === -1 ? 'more' : close + CALLS_END.length;
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const inner = body.endsWith(CALLS_END) ? body.slice(0, -CALLS_END.length) : body;
    const [first = '', ...rest] = inner.split(CALL_BEGIN);
    // The first call may come without its `<｜tool▁call▁begin｜>`.
    const parts = first.trim() === '' ? rest : [first, ...rest];
    if (parts.length === 0) return undefined;
    const calls: TextToolCall[] = [];
    for (const part of parts) {
      const call = parseCall(part.split(CALL_END)[0] ?? '', toolNames);
      if (call === undefined) return undefined;
      calls.push(call);
    }
    return calls;
  },
};

/** Whether `text` (right after the opener) is, or may still become, the start of a call. */
function mayStartCall(text: string, toolNames: ReadonlySet<string>): boolean {
  const head = text.slice(0, CALL_BEGIN.length);
  if (CALL_BEGIN.startsWith(head) || head.startsWith(CALL_BEGIN)) return true;
  // `NAME<｜tool▁sep｜>` with no `<｜tool▁call▁begin｜>` before it.
  const name = /^[^\s<]*/.exec(text)?.[0] ?? '';
  const after = text.slice(name.length, name.length + SEP.length);
  if (after === '') return namePrefixViability(name, toolNames) === 'maybe';
  return SEP.startsWith(after) && toolNames.has(name);
}

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
