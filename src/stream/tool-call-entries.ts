import { isRecord } from '../types/is-record.js';
import type { TextToolCallDialects } from './dialects/text-tool-call-dialect.js';

/** One call being built from deltas. */
export interface ToolCallEntry {
  id: string | undefined;
  name: string | undefined;
  /** Concatenated argument fragments. */
  arguments: string;
  /** Arguments some servers send as an object instead of a JSON string. */
  input: Record<string, unknown> | undefined;
  /** Added whole by {@link ToolCallAccumulator.add} (markup in the text), not from deltas. */
  whole: boolean;
  /** The call's position in the response when it started. */
  position: number;
}

/** A streamed call whose arguments glue on more calls (vLLM's Mistral parser), as those calls. */
export function unglued(
  entry: ToolCallEntry,
  glued: { toolNames: ReadonlySet<string>; split: TextToolCallDialects['splitGluedCalls'] },
): ToolCallEntry[] {
  const { toolNames, split } = glued;
  if (split === undefined || entry.whole || entry.input !== undefined || toolNames.size === 0)
    return [entry];
  const parts = split(entry.arguments, toolNames);
  if (parts === undefined) return [entry];
  const [first, ...rest] = parts;
  return [
    { ...entry, arguments: '', input: first },
    ...rest.map((call) => ({
      id: undefined,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : '',
      input: typeof call.arguments === 'string' ? undefined : call.arguments,
      whole: false,
      position: entry.position,
    })),
  ];
}

/** `entries` without the whole calls that repeat a streamed call's name and arguments. */
export function withoutRepeatedWholeCalls(
  entries: readonly ToolCallEntry[],
): readonly ToolCallEntry[] {
  // Per response, over every call: a plain loop, no callbacks (the common case ends here).
  let whole = 0;
  for (const entry of entries) if (entry.whole) whole++;
  if (whole === 0 || whole === entries.length) return entries;
  const streamed = new Set(entries.flatMap((entry) => (entry.whole ? [] : [callKey(entry)])));
  return entries.filter((entry) => !entry.whole || !streamed.has(callKey(entry)));
}

/** Name and arguments as one comparable string (arguments re-dumped without spaces, keys sorted). */
function callKey(entry: ToolCallEntry): string {
  let input: unknown = entry.input;
  if (input === undefined) {
    try {
      input = entry.arguments.trim() === '' ? {} : JSON.parse(entry.arguments);
    } catch {
      input = entry.arguments;
    }
  }
  return `${entry.name ?? ''}\u0000${canonicalJson(input)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
