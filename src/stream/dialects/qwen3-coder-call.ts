import type { TextToolCall } from './text-tool-call-dialect.js';

const FUNCTION = /^<function=([^>\s]+)>([\s\S]*?)(?:<\/function>)?\s*$/;
/**
 * A parameter's value ends at a `</parameter>` that only white space separates from the next
 * `<parameter=` or the function's end (llama.cpp's qwen3-coder parser ends it at
 * `\n</parameter>\n`: a value may hold the text `</parameter>`), or, unclosed, at the next
 * `<parameter=` or the end (vLLM's qwen3_coder).
 */
const PARAMETER =
  /<parameter=([^>\s]+)>([\s\S]*?)(?:<\/parameter>\s*(?=<parameter=|$)|(?=<parameter=)|$)/g;

/**
 * Qwen3-Coder's XML call body: `<function=NAME><parameter=KEY>VALUE</parameter>…</function>`.
 * Values are raw text (one newline either side trimmed), passed on as strings: the loop's
 * schema-driven repair turns `"5"` into `5`, `"true"` into `true` and JSON text into objects
 * where the tool's schema expects them (as vLLM's qwen3_coder parser converts by schema).
 */
export function parseQwen3CoderCall(
  body: string,
  toolNames: ReadonlySet<string>,
): TextToolCall | undefined {
  const match = FUNCTION.exec(body);
  if (match === null) return undefined;
  const [, name = '', parameters = ''] = match;
  if (!toolNames.has(name)) return undefined;
  const args: Record<string, unknown> = {};
  let rest = parameters;
  for (const parameter of parameters.matchAll(PARAMETER)) {
    const [whole, key = '', value = ''] = parameter;
    args[key] = value.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
    rest = rest.replace(whole, '');
  }
  // Anything but whitespace outside the parameters is not this format.
  return rest.trim() === '' ? { name, arguments: args } : undefined;
}

const FUNCTIONS = /<function=[\s\S]*?(?:<\/function>|$)/g;

/**
 * One or more Qwen3-Coder `<function=…>…</function>` in a row — the body of one
 * `<tool_call>` block (vLLM's qwen3_coder reads every `<function=` in a block as a call).
 * `undefined` unless each is a registered tool's call and only white space is between them.
 *
 * @example
 * parseQwen3CoderCalls('<function=a>\n</function>\n<function=b>\n</function>', new Set(['a', 'b']));
 * // [{ name: 'a', arguments: {} }, { name: 'b', arguments: {} }]
 */
export function parseQwen3CoderCalls(
  text: string,
  toolNames: ReadonlySet<string>,
): TextToolCall[] | undefined {
  const calls: TextToolCall[] = [];
  let rest = text;
  for (const [whole] of text.matchAll(FUNCTIONS)) {
    const call = parseQwen3CoderCall(whole.trim(), toolNames);
    if (call === undefined) return undefined;
    calls.push(call);
    rest = rest.replace(whole, '');
  }
  return calls.length > 0 && rest.trim() === '' ? calls : undefined;
}
