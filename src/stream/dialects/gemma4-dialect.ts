import { closingMarkerEnd, expectPrefix, withoutCloser } from './closing-marker.js';
import { parseGemma4Arguments } from './gemma4-args.js';
import { namePrefixViability } from './json-call.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
  WholeAnswerDialect,
} from './text-tool-call-dialect.js';

/** Some Gemma 4 builds end a call with `<turn|>` instead of `<tool_call|>` (vLLM notes it). */
const CLOSE = ['<tool_call|>', '<turn|>'];
const CALL = /^call:([A-Za-z0-9_.-]+)(\{[\s\S]*\})$/;

/**
 * Gemma 4: `<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>`, several
 * back to back with no separator, no id. Arguments in Gemma 4's own syntax
 * ({@link parseGemma4Arguments}). Checked against vLLM `gemma4` (gemma4_utils) and
 * llama.cpp `common/parsers/gemma4.cpp`.
 */
export const gemma4Dialect: TaggedDialect = {
  openers: ['<|tool_call>'],
  end(body: string, { scanned }: BlockContext): BlockEnd {
    return expectPrefix(body, 'call:') ?? closingMarkerEnd(body, scanned, CLOSE);
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const call = readCall(withoutCloser(body, CLOSE).trim(), toolNames);
    return call === undefined ? undefined : [call];
  },
};

/**
 * Gemma 4's calls with the special tokens stripped (a server decoding with
 * `skip_special_tokens`): bare `call:get_weather{city:Paris}`, or `<call>get_weather{…}` (the
 * token fragments vLLM's `gemma4_utils`, ported from transformers, also reads) — only as the
 * whole answer, one or more calls (white space between them; none needed after `}`).
 */
export const gemma4BareAnswer: WholeAnswerDialect = {
  viable(answer, toolNames) {
    const prefix = answer.startsWith('<') ? '<call>' : 'call:';
    if (answer.length <= prefix.length) return prefix.startsWith(answer) ? 'maybe' : 'no';
    if (!answer.startsWith(prefix)) return 'no';
    const name = /^[A-Za-z0-9_.-]*/.exec(answer.slice(prefix.length))?.[0] ?? '';
    if (prefix.length + name.length === answer.length) return namePrefixViability(name, toolNames);
    return toolNames.has(name) && answer[prefix.length + name.length] === '{' ? 'yes' : 'no';
  },
  parse(answer, toolNames) {
    const calls: TextToolCall[] = [];
    for (const piece of answer.split(/\s+(?=call:)|\s*(?=<call>)/)) {
      if (piece === '') continue;
      const call = readCall(piece.trim().replace(/^<call>/, 'call:'), toolNames);
      if (call === undefined) return undefined;
      calls.push(call);
    }
    return calls.length > 0 ? calls : undefined;
  },
};

function readCall(text: string, toolNames: ReadonlySet<string>): TextToolCall | undefined {
  const match = CALL.exec(text);
  if (match === null) return undefined;
  const [, name = '', args = ''] = match;
  const input = parseGemma4Arguments(args);
  return toolNames.has(name) && input !== undefined ? { name, arguments: input } : undefined;
}
