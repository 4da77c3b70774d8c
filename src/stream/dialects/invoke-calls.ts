import { parseJson } from './json-call.js';
import type { TextToolCall } from './text-tool-call-dialect.js';

/** A `name=` value: double-quoted, single-quoted or bare (vLLM's minimax_m2 takes all three). */
const NAME = `(?:"([^"]+)"|'([^']+)'|([^>\\s"']+))`;

/**
 * Reads `<PREFIXinvoke name="NAME"><PREFIXparameter name="KEY">VALUE</PREFIXparameter>…
 * </PREFIXinvoke>` calls, repeated, as MiniMax M2 (no prefix) and DeepSeek V3.2's DSML
 * (`｜DSML｜`) write them. Values are raw text (one new line either side trimmed) that the
 * loop's schema-driven repair types; a parameter marked `string="false"` (DSML) holds JSON.
 * `undefined` unless every call is a registered tool's and nothing else is in the text.
 */
export function parseInvokeCalls(
  text: string,
  prefix: string,
  toolNames: ReadonlySet<string>,
): TextToolCall[] | undefined {
  const invoke = new RegExp(
    `<${prefix}invoke name=${NAME}>([\\s\\S]*?)(?:</${prefix}invoke>|$)`,
    'g',
  );
  // A parameter left unclosed ends where the next one starts (vLLM's minimax_m2 reads so).
  const parameter = new RegExp(
    `<${prefix}parameter name=${NAME}(?: string="(true|false)")?>([\\s\\S]*?)(?:</${prefix}parameter>|(?=<${prefix}parameter name=)|$)`,
    'g',
  );
  const calls: TextToolCall[] = [];
  let rest = text;
  for (const [whole, dq, sq, bare, body = ''] of text.matchAll(invoke)) {
    const name = dq ?? sq ?? bare ?? '';
    if (!toolNames.has(name)) return undefined;
    const args: Record<string, unknown> = {};
    let left = body;
    for (const [part, kdq, ksq, kbare, string, value = ''] of body.matchAll(parameter)) {
      const key = kdq ?? ksq ?? kbare ?? '';
      const raw = value.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
      const json = string === 'false' ? parseJson(raw) : undefined;
      args[key] = json === undefined ? raw : json;
      left = left.replace(part, '');
    }
    if (left.trim() !== '') return undefined;
    calls.push({ name, arguments: args });
    rest = rest.replace(whole, '');
  }
  return calls.length > 0 && rest.trim() === '' ? calls : undefined;
}

/** Escapes a marker for a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
