import { errorMessage } from '../errors/agent-error.js';
import type { ToolUseBlock, ToolUseError } from '../types/events.js';
import { isRecord } from '../types/is-record.js';
import { nonEmptyString } from './chunk-reader.js';
import type { TextToolCallDialects } from './dialects/text-tool-call-dialect.js';
import { type ToolCallEntry, unglued, withoutRepeatedWholeCalls } from './tool-call-entries.js';

/**
 * A call whose id, name or arguments changed within one delta: what
 * {@link ToolCallAccumulator}'s listener receives (once per call per delta).
 */
export interface ToolCallDelta {
  /** The call's position in the response (0 for the first call). */
  index: number;
  /** The call's id, once the server sent one. */
  id?: string;
  /** The function name, once the server sent one. */
  name?: string;
  /** The whole arguments text received so far (not only the new piece). */
  arguments: string;
}

/** Options for {@link ToolCallAccumulator.finish}. */
export interface ToolCallFinishOptions {
  /** The raw finish reason: with `length`, a half-written last call is reported, not run. */
  finishReason: string | null;
  /** Makes an id for a call the server sent without one. */
  generateId: () => string;
}

/** The calls of one response once the stream has ended. */
export interface ToolCallResult {
  /** Valid calls and errors together, in call order: what the stream yields. */
  events: (ToolUseBlock | ToolUseError)[];
  toolCalls: ToolUseBlock[];
  invalidToolCalls: ToolUseError[];
}

/**
 * Builds tool calls from streamed `delta.tool_calls` fragments, with the quirks of real
 * servers: calls are keyed by `index` (missing → position in the delta's array, `"0"` →
 * 0, any start such as Anthropic's 1); an `id` that differs from the one held at that
 * index starts a new call (older Ollama sent every parallel call as index 0); `""` and
 * `null` ids and names mean "not sent" (DashScope, GLM, OpenAI via Python proxies).
 *
 * @example
 * const calls = new ToolCallAccumulator();
 * calls.push([{ index: 0, id: 'call_1', function: { name: 'get_weather', arguments: '{"ci' } }]);
 * calls.push([{ index: 0, function: { arguments: 'ty":"Oslo"}' } }]);
 * calls.finish({ finishReason: 'tool_calls', generateId }).toolCalls;
 * // [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } }]
 */
export class ToolCallAccumulator {
  readonly #entries: ToolCallEntry[] = [];
  readonly #byIndex = new Map<number, ToolCallEntry>();
  readonly #listener: ((delta: ToolCallDelta) => void) | undefined;
  readonly #glued: {
    toolNames: ReadonlySet<string>;
    split: TextToolCallDialects['splitGluedCalls'];
  };

  /**
   * @param listener Told when a streamed call's id, name or arguments change (not for {@link add}).
   * @param glued Registered tools, and how to split arguments that glue on calls of these.
   */
  constructor(
    listener?: (delta: ToolCallDelta) => void,
    glued: {
      toolNames?: ReadonlySet<string>;
      split?: TextToolCallDialects['splitGluedCalls'];
    } = {},
  ) {
    this.#listener = listener;
    this.#glued = { toolNames: glued.toolNames ?? new Set(), split: glued.split };
  }

  /** How many calls have started. */
  get count(): number {
    return this.#entries.length;
  }

  /** Adds the `tool_calls` array of one delta. */
  push(toolCalls: readonly unknown[]): void {
    // Only collected with a listener: the common path allocates nothing more.
    let changed: ToolCallEntry[] | undefined;
    for (let position = 0; position < toolCalls.length; position++) {
      const call = toolCalls[position];
      if (!isRecord(call)) continue;
      const index = readIndex(call.index, position);
      const id = nonEmptyString(call.id);
      const fn = isRecord(call.function) ? call.function : undefined;
      let entry = this.#byIndex.get(index);
      if (entry === undefined || (id !== undefined && entry.id !== undefined && entry.id !== id)) {
        entry = {
          id: undefined,
          name: undefined,
          arguments: '',
          input: undefined,
          whole: false,
          position: this.#entries.length,
        };
        this.#entries.push(entry);
        this.#byIndex.set(index, entry);
      }
      let touched = false;
      if (id !== undefined && entry.id === undefined) {
        entry.id = id;
        touched = true;
      }
      if (fn !== undefined) {
        const name = nonEmptyString(fn.name);
        // Keep the first name: GLM behind Mistral sends `"name": ""` on continuations.
        if (name !== undefined && entry.name === undefined) {
          entry.name = name;
          touched = true;
        }
        const args = fn.arguments;
        if (typeof args === 'string') {
          if (args !== '') {
            entry.arguments += args;
            touched = true;
          }
        } else if (isRecord(args)) {
          entry.input = args;
          touched = true;
        }
      }
      if (touched && this.#listener !== undefined && !(changed ??= []).includes(entry)) {
        changed.push(entry);
      }
    }
    if (changed !== undefined) this.#notify(changed);
  }

  #notify(entries: readonly ToolCallEntry[]): void {
    const listener = this.#listener;
    if (listener === undefined) return;
    for (const entry of entries) {
      listener({
        index: entry.position,
        ...(entry.id === undefined ? {} : { id: entry.id }),
        ...(entry.name === undefined ? {} : { name: entry.name }),
        // Ollama's native API sends arguments as an object: show it as the text it stands for.
        arguments: entry.input === undefined ? entry.arguments : JSON.stringify(entry.input),
      });
    }
  }

  /** Adds a call that arrived whole, e.g. parsed from `<tool_call>` markup in the text. */
  add(call: { name: string; arguments: string | Record<string, unknown>; id?: string }): void {
    const entry: ToolCallEntry = {
      id: call.id,
      name: call.name,
      arguments: '',
      input: undefined,
      whole: true,
      position: this.#entries.length,
    };
    if (typeof call.arguments === 'string') entry.arguments = call.arguments;
    else entry.input = call.arguments;
    this.#entries.push(entry);
  }

  /** Drops the calls added with {@link add}: the text they were read from was reasoning. */
  discardWholeCalls(): void {
    const kept = this.#entries.filter((entry) => !entry.whole);
    this.#entries.length = 0;
    this.#entries.push(...kept);
  }

  /**
   * Parses every call's arguments; call once, after the stream has ended. A call read from
   * text that repeats a streamed call (same name and arguments) is dropped: older
   * text-generation-webui streams the model's `<tool_call>` markup as content and then its
   * own parse of it as `tool_calls` — one call, which must run once.
   */
  finish(options: ToolCallFinishOptions): ToolCallResult {
    const result: ToolCallResult = { events: [], toolCalls: [], invalidToolCalls: [] };
    const entries = withoutRepeatedWholeCalls(this.#entries).flatMap((entry) =>
      unglued(entry, this.#glued),
    );
    const last = entries.length - 1;
    entries.forEach((entry, position) => {
      const event = settle(entry, {
        id: entry.id ?? options.generateId(),
        cutOff: options.finishReason === 'length' && position === last,
      });
      result.events.push(event);
      if (event.type === 'tool_use') result.toolCalls.push(event);
      else result.invalidToolCalls.push(event);
    });
    return result;
  }
}

/** `index` as sent (a number, or a numeric string from some servers), else the position. */
function readIndex(value: unknown, position: number): number {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : position;
  if (typeof value === 'string' && value.trim() !== '') {
    const index = Number(value);
    if (Number.isInteger(index) && index >= 0) return index;
  }
  return position;
}

/** Turns one finished entry into a `tool_use`, or a `tool_use_error` that must not run. */
function settle(
  entry: ToolCallEntry,
  call: { id: string; cutOff: boolean },
): ToolUseBlock | ToolUseError {
  const name = entry.name ?? '';
  const rawData = entry.input === undefined ? entry.arguments : JSON.stringify(entry.input);
  const invalid = (code: ToolUseError['code'], error: string): ToolUseError => ({
    type: 'tool_use_error',
    code,
    error,
    rawData,
    toolUseId: call.id,
    name,
  });
  let input = entry.input;
  let problem: string | undefined;
  if (input === undefined) {
    const parsed = parseArguments(entry.arguments, call.cutOff);
    if (parsed.success) input = parsed.value;
    else problem = parsed.error;
  }
  if (input === undefined) {
    if (call.cutOff) {
      return invalid(
        'INVALID_TOOL_INPUT',
        `The response was cut off at the token limit (finish_reason "length") while the arguments of tool call "${name}" were being written; the call was not executed.`,
      );
    }
    return invalid(
      'INVALID_TOOL_INPUT',
      `Tool "${name}" received ${problem ?? 'invalid arguments'}.`,
    );
  }
  if (name === '') {
    return invalid('INVALID_TOOL_INPUT', `Tool call "${call.id}" arrived without a function name.`);
  }
  return entry.whole
    ? { type: 'tool_use', id: call.id, name, input, recoveredFromText: true }
    : { type: 'tool_use', id: call.id, name, input };
}

type ParsedArguments =
  { success: true; value: Record<string, unknown> } | { success: false; error: string };

/** Arguments text → an object; empty text means the server sent none (`{}`). */
function parseArguments(text: string, cutOff: boolean): ParsedArguments {
  if (text.trim() === '') {
    // A call cut off right after its name never got its arguments.
    return cutOff ? { success: false, error: 'no arguments' } : { success: true, value: {} };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { success: false, error: `arguments that are not valid JSON (${errorMessage(error)})` };
  }
  if (isRecord(value)) return { success: true, value };
  const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
  return { success: false, error: `arguments that are not a JSON object (got ${kind})` };
}
