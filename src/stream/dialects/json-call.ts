import { isRecord } from '../../types/is-record.js';
import { nonEmptyString } from '../chunk-reader.js';
import type { TextToolCall, Viability } from './text-tool-call-dialect.js';

/**
 * Where the JSON object or array starting at `from` ends (the index just past it),
 * `'incomplete'` when the text stops inside it, `'invalid'` when `from` starts no object or
 * array or the brackets do not match. Strings are skipped, escapes and all.
 */
export function jsonExtent(text: string, from: number): number | 'incomplete' | 'invalid' {
  const first = text[from];
  if (first !== '{' && first !== '[') return 'invalid';
  const closers: string[] = [];
  let inString = false;
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') closers.push('}');
    else if (char === '[') closers.push(']');
    else if (char === '}' || char === ']') {
      if (closers.pop() !== char) return 'invalid';
      if (closers.length === 0) return index + 1;
    }
  }
  return 'incomplete';
}

/** `JSON.parse` that answers `undefined` instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A call written as JSON — `{"name", "arguments" | "parameters"}`, or the same under
 * `"function"` — for a registered tool; else `undefined`.
 */
export function callFromJson(
  value: unknown,
  toolNames: ReadonlySet<string>,
): TextToolCall | undefined {
  if (!isRecord(value)) return undefined;
  const holder = isRecord(value.function) ? value.function : value;
  const name = nonEmptyString(holder.name);
  if (name === undefined || !toolNames.has(name)) return undefined;
  const args = holder.arguments ?? holder.parameters;
  if (args === undefined || args === null) return { name, arguments: {} };
  if (isRecord(args)) return { name, arguments: args };
  // A string is passed on as raw arguments text; anything else is reported as invalid input.
  return { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

/** Every element of a JSON array of calls, or `undefined` unless all are calls of registered tools. */
export function callsFromJsonArray(
  text: string,
  toolNames: ReadonlySet<string>,
): TextToolCall[] | undefined {
  const value = parseJson(text);
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const calls: TextToolCall[] = [];
  for (const element of value as unknown[]) {
    const call = callFromJson(element, toolNames);
    if (call === undefined) return undefined;
    calls.push(call);
  }
  return calls;
}

/**
 * How far `text` (from its first non-space character, a `{`) can be the start of a JSON
 * call object for a registered tool: `no` as soon as its first key or the tool name rules
 * it out, `yes` once the name is a registered tool's (or the first key is `type` or
 * `function`, whose object is only known whole).
 */
export function jsonCallViability(text: string, toolNames: ReadonlySet<string>): Viability {
  const key = readString(text, skipSpace(text, 1));
  if (key === 'more') return 'maybe';
  if (key === 'no') return 'no';
  if (!key.complete) return FIRST_KEYS.some((first) => first.startsWith(key.text)) ? 'maybe' : 'no';
  if (key.text === 'type' || key.text === 'function') return 'yes';
  if (key.text !== 'name') return 'no';
  const colon = skipSpace(text, key.end);
  if (colon === text.length) return 'maybe';
  if (text[colon] !== ':') return 'no';
  const value = readString(text, skipSpace(text, colon + 1));
  if (value === 'more') return 'maybe';
  if (value === 'no') return 'no';
  if (value.complete) return toolNames.has(value.text) ? 'yes' : 'no';
  return namePrefixViability(value.text, toolNames);
}

/** `maybe` while `prefix` can still become a registered tool's name, else `no`. */
export function namePrefixViability(prefix: string, toolNames: ReadonlySet<string>): Viability {
  for (const name of toolNames) if (name.startsWith(prefix)) return 'maybe';
  return 'no';
}

const FIRST_KEYS = ['name', 'type', 'function'];

export function skipSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && /\s/.test(text[index] ?? '')) index++;
  return index;
}

/** The JSON string at `from` (no escapes expected in keys and names). */
function readString(
  text: string,
  from: number,
): 'more' | 'no' | { text: string; complete: boolean; end: number } {
  if (from >= text.length) return 'more';
  if (text[from] !== '"') return 'no';
  const close = text.indexOf('"', from + 1);
  if (close === -1) return { text: text.slice(from + 1), complete: false, end: text.length };
  return { text: text.slice(from + 1, close), complete: true, end: close + 1 };
}
