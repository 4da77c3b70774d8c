import { closingMarkerEnd, expectPrefix } from './closing-marker.js';
import { isRecord } from '../../types/is-record.js';
import { parseJson } from './json-call.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
} from './text-tool-call-dialect.js';

const CALL_BEGIN = '<|tool_call_begin|>';
const ARGUMENT_BEGIN = '<|tool_call_argument_begin|>';
const CALL_END = '<|tool_call_end|>';
const SECTION_ENDS = ['<|tool_calls_section_end|>', '<|tool_call_section_end|>'];

/**
 * Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0
 * <|tool_call_argument_begin|>{…}<|tool_call_end|>…<|tool_calls_section_end|>`. The name is
 * between the last `.` and the `:`; `functions.NAME:N` is the call id. vLLM also accepts the
 * singular `<|tool_call_section_begin|>`; llama.cpp treats the section markers as optional,
 * so a lone `<|tool_call_begin|>…<|tool_call_end|>` counts too. Checked against vLLM
 * `kimi_k2` and llama.cpp's Kimi K2 parser.
 */
export const kimiK2Dialect: TaggedDialect = {
  openers: ['<|tool_calls_section_begin|>', '<|tool_call_section_begin|>', CALL_BEGIN],
  end(body: string, { opener, scanned }: BlockContext): BlockEnd {
    if (opener === CALL_BEGIN) return closingMarkerEnd(body, scanned, [CALL_END]);
    return expectPrefix(body, CALL_BEGIN) ?? closingMarkerEnd(body, scanned, SECTION_ENDS);
  },
  parse(body: string, { opener, toolNames }: BlockContext): TextToolCall[] | undefined {
    let inner = opener === CALL_BEGIN ? CALL_BEGIN + body : body;
    for (const end of SECTION_ENDS) if (inner.endsWith(end)) inner = inner.slice(0, -end.length);
    const parts = inner.split(CALL_BEGIN);
    if (parts.shift()?.trim() !== '' || parts.length === 0) return undefined;
    const calls: TextToolCall[] = [];
    for (const part of parts) {
      const [call = '', after = ''] = part.split(CALL_END);
      if (after.trim() !== '') return undefined;
      const [id = '', json, ...extra] = call.split(ARGUMENT_BEGIN);
      if (json === undefined || extra.length > 0) return undefined;
      const trimmedId = id.trim();
      const name = /([^.:\s]+)(?::\d+)?$/.exec(trimmedId)?.[1] ?? '';
      const args = json.trim() === '' ? {} : parseJson(json.trim());
      if (!toolNames.has(name) || !isRecord(args)) return undefined;
      calls.push({ name, arguments: args, id: trimmedId });
    }
    return calls;
  },
};
