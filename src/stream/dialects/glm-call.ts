import { namePrefixViability } from './json-call.js';
import type { BlockEnd, TextToolCall } from './text-tool-call-dialect.js';

const NAME = /^[A-Za-z0-9_.-]*/;
const ARGUMENT = /<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)(?:<\/arg_value>|$)/g;

/**
 * Whether a `<tool_call>` body (from its first non-space character) can be GLM's call:
 * `'not'` once its name cannot be a registered tool's, `'more'` while it still may be,
 * `undefined` once the name is a registered tool's (then the closing tag decides).
 */
export function glmCallStart(body: string, toolNames: ReadonlySet<string>): BlockEnd | undefined {
  const name = NAME.exec(body)?.[0] ?? '';
  if (name === body)
    return name === '' || namePrefixViability(name, toolNames) !== 'no' ? 'more' : 'not';
  if (name === '' || !toolNames.has(name)) return 'not';
  return /[\s<]/.test(body[name.length] ?? '') ? undefined : 'not';
}

/**
 * GLM-4.5 / 4.6 `get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n` and
 * GLM-4.7 / 5, the same without the new lines — the body of a `<tool_call>` block. Values
 * are raw text; the loop's schema-driven repair types them (vLLM's `glm45` / `glm47` parsers
 * read non-string values as JSON by the schema the same way).
 */
export function parseGlmCall(
  body: string,
  toolNames: ReadonlySet<string>,
): TextToolCall | undefined {
  const name = NAME.exec(body)?.[0] ?? '';
  if (!toolNames.has(name)) return undefined;
  const rest = body.slice(name.length);
  const args: Record<string, unknown> = {};
  let left = rest;
  for (const [whole, key = '', value = ''] of rest.matchAll(ARGUMENT)) {
    args[key.trim()] = value;
    left = left.replace(whole, '');
  }
  return left.trim() === '' ? { name, arguments: args } : undefined;
}
