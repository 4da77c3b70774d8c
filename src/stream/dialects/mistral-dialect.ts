import {
  callsFromJsonArray,
  jsonExtent,
  namePrefixViability,
  parseJson,
  skipSpace,
} from './json-call.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';
import { isRecord } from '../../types/is-record.js';

const ARGS = '[ARGS]';
const CALL_ID = '[CALL_ID]';
const NAME = /^[A-Za-z0-9_-]*/;

/**
 * Mistral's `[TOOL_CALLS]`, in its three spellings: before tokenizer v11 a JSON array
 * `[TOOL_CALLS] [{"name": …, "arguments": {…}, "id": …}, …]`; v11 and later
 * `[TOOL_CALLS]NAME[ARGS]{…}` (optionally `[CALL_ID]ID` before `[ARGS]`), repeated per call;
 * and `[TOOL_CALLS]NAME{…}` as some servers print it. The block ends with its JSON value.
 * mistral-common encodes an assistant message as its content followed directly by the
 * `[TOOL_CALLS]` token, so after prose the token shares the prose's line; on a line of its
 * own after prose it is quoted text.
 */
export const mistralDialect: TaggedDialect = {
  openers: ['[TOOL_CALLS]'],
  sameLine: 'text-before',
  end(body: string, { toolNames }: BlockContext): BlockEnd {
    const start = skipSpace(body, 0);
    if (start === body.length) return 'more';
    if (body[start] === '[') return valueEnd(body, start);
    const name = NAME.exec(body.slice(start))?.[0] ?? '';
    let index = start + name.length;
    if (index === body.length)
      return name === '' ? 'more' : namePrefixViability(name, toolNames) === 'no' ? 'not' : 'more';
    if (!toolNames.has(name)) return 'not';
    for (const marker of [CALL_ID, ARGS]) {
      const rest = body.slice(index, index + marker.length);
      if (rest.length < marker.length && marker.startsWith(rest)) return 'more';
      if (rest !== marker) continue;
      index += marker.length;
      if (marker === CALL_ID) {
        const id = /^[A-Za-z0-9]*/.exec(body.slice(index))?.[0] ?? '';
        index += id.length;
        if (index === body.length) return 'more';
      }
    }
    index = skipSpace(body, index);
    if (index === body.length) return 'more';
    return body[index] === '{' ? valueEnd(body, index) : 'not';
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const trimmed = body.trim();
    if (trimmed.startsWith('['))
      return withArrayIds(callsFromJsonArray(trimmed, toolNames), trimmed);
    const match =
      /^([A-Za-z0-9_-]+)(?:\[CALL_ID\]([A-Za-z0-9]+))?(?:\[ARGS\])?\s*(\{[\s\S]*\})$/.exec(trimmed);
    if (match === null) return undefined;
    const [, name = '', id, json = ''] = match;
    const args = parseJson(json);
    if (!toolNames.has(name) || !isRecord(args)) return undefined;
    return [{ name, arguments: args, ...(id === undefined ? {} : { id }) }];
  },
};

/**
 * Mistral Nemo gives each call of the array an `"id"` (9 letters and digits) that its
 * template expects back: kept as the call's id, as llama.cpp's mistral-nemo parser does.
 */
function withArrayIds(calls: TextToolCall[] | undefined, json: string): TextToolCall[] | undefined {
  const items = parseJson(json);
  if (calls === undefined || !Array.isArray(items) || items.length !== calls.length) return calls;
  return calls.map((call, index) => {
    const item: unknown = items[index];
    const id = isRecord(item) ? item.id : undefined;
    return typeof id === 'string' && /^[A-Za-z0-9]+$/.test(id) ? { ...call, id } : call;
  });
}

function valueEnd(body: string, from: number): BlockEnd {
  const end = jsonExtent(body, from);
  if (end === 'incomplete') return 'more';
  return end === 'invalid' ? 'not' : end;
}
