import { callFromJson, jsonCallViability, jsonExtent, parseJson, skipSpace } from './json-call.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
  WholeAnswerDialect,
} from './text-tool-call-dialect.js';

const END_TOKENS = ['<|eom_id|>', '<|eot_id|>'];

/**
 * Llama 3.1–3.3 JSON calls `{"name": …, "parameters": {…}}` (several separated by `;` or
 * new lines) — as the whole answer: a JSON object in the middle of prose is shown, not run.
 */
export const llamaJsonAnswer: WholeAnswerDialect = {
  viable(answer, toolNames) {
    return answer.startsWith('{') ? jsonCallViability(answer, toolNames) : 'no';
  },
  parse(answer, toolNames) {
    return jsonCalls(answer, toolNames);
  },
};

/**
 * The same JSON calls after `<|python_tag|>`, wherever it appears; the block runs to the
 * end of the text (or an `<|eom_id|>` / `<|eot_id|>` left in it).
 */
export const llamaPythonTagDialect: TaggedDialect = {
  openers: ['<|python_tag|>'],
  end(body: string): BlockEnd {
    const start = skipSpace(body, 0);
    if (start < body.length && body[start] !== '{') return 'not';
    for (const token of END_TOKENS) {
      const index = body.indexOf(token);
      if (index !== -1) return index + token.length;
    }
    return 'more';
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    let text = body;
    for (const token of END_TOKENS) if (text.endsWith(token)) text = text.slice(0, -token.length);
    return jsonCalls(text, toolNames);
  },
};

/** One or more JSON call objects, separated by `;`, commas or white space, and nothing else. */
function jsonCalls(text: string, toolNames: ReadonlySet<string>): TextToolCall[] | undefined {
  const calls: TextToolCall[] = [];
  let index = skipSpace(text, 0);
  while (index < text.length) {
    const end = jsonExtent(text, index);
    if (typeof end !== 'number') return undefined;
    const call = callFromJson(parseJson(text.slice(index, end)), toolNames);
    if (call === undefined) return undefined;
    calls.push(call);
    index = skipSpace(text, end);
    if (text[index] === ';' || text[index] === ',') index = skipSpace(text, index + 1);
  }
  return calls.length > 0 ? calls : undefined;
}
