import { errorMessage } from '../errors/agent-error.js';
import type { ToolUseBlock, ToolUseError } from '../types/events.js';
import { isRecord } from '../types/is-record.js';
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

  /** Adds the `tool_calls` array of one delta. */
  push(toolCalls: readonly unknown[]): void {
    // Only collected with a listener: the common path allocates nothing more.
    let changed: ToolCallEntry[] | undefined;
    for (let position = 0; position < toolCalls.length; position++) {
      // Hot path: per tool-call delta, so the guards are written out rather than called.
      const call = toolCalls[position];
      if (typeof call !== 'object' || call === null || Array.isArray(call)) continue;
      const fields = call as Record<string, unknown>;
      // `index` as sent (a number, or a numeric string from some servers), else the position.
      const sent = fields.index;
      const number = typeof sent === 'string' && sent.trim() !== '' ? Number(sent) : sent;
      const index =
        typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : position;
      const sentId = fields.id;
      const id = typeof sentId === 'string' && sentId !== '' ? sentId : undefined; // "" and null: not sent
      // A primitive or an array has no name or arguments: no guard needed beyond null.
      const fn = fields.function as Record<string, unknown> | undefined | null;
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
      if (fn !== undefined && fn !== null) {
        const name = fn.name;
        // Keep the first name: GLM behind Mistral sends `"name": ""` on continuations.
        if (typeof name === 'string' && name !== '' && entry.name === undefined) {
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
    // Per call: plain loops, no callbacks.
    const entries: ToolCallEntry[] = [];
    for (const entry of withoutRepeatedWholeCalls(this.#entries))
      // Calls glue on only after a `}`: most arguments need no closer look.
      entries.push(...(GLUED.test(entry.arguments) ? unglued(entry, this.#glued) : [entry]));
    const last = entries.length - 1;
    for (let position = 0; position <= last; position++) {
      const entry = entries[position] as ToolCallEntry; // position <= last
      const event = settle(entry, {
        id: entry.id ?? options.generateId(),
        cutOff: options.finishReason === 'length' && position === last,
      });
      result.events.push(event);
      if (event.type === 'tool_use') result.toolCalls.push(event);
      else result.invalidToolCalls.push(event);
    }
    return result;
  }
}

/**
 * What arguments that glue on more calls (see `unglued`) must hold: a `}` that ends the
 * first call's object, then, after any white space, the next call's name.
 */
const GLUED = /\}\s*[\w-]/;

/** Turns one finished entry into a `tool_use`, or a `tool_use_error` that must not run. */
function settle(
  entry: ToolCallEntry,
  call: { id: string; cutOff: boolean },
): ToolUseBlock | ToolUseError {
  const name = entry.name ?? '';
  const invalid = (error: string): ToolUseError => ({
    type: 'tool_use_error',
    code: 'INVALID_TOOL_INPUT',
    error,
    rawData: entry.input === undefined ? entry.arguments : JSON.stringify(entry.input),
    toolUseId: call.id,
    name,
  });
  // Per call: the arguments are parsed here, not in a helper of their own.
  let input = entry.input;
  let problem: string | undefined;
  const text = entry.arguments;
  if (input !== undefined) {
    // Sent as an object (Ollama's native API).
  } else if (text.trim() === '') {
    // The server sent none: `{}` — unless the call was cut off right after its name.
    if (!call.cutOff) input = {};
  } else {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      problem = `arguments that are not valid JSON (${errorMessage(error)})`;
    }
    if (problem !== undefined) {
      // Reported below.
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      input = value as Record<string, unknown>;
    } else {
      const kind = Array.isArray(value)
        ? 'an array'
        : value === null
          ? 'null'
          : `a ${typeof value}`;
      problem = `arguments that are not a JSON object (got ${kind})`;
    }
  }
  if (input === undefined) {
    return invalid(
      call.cutOff
        ? `The response was cut off at the token limit (finish_reason "length") while the arguments of tool call "${name}" were being written; the call was not executed.`
        : `Tool "${name}" received ${problem ?? 'invalid arguments'}.`,
    );
  }
  if (name === '') return invalid(`Tool call "${call.id}" arrived without a function name.`);
  return entry.whole
    ? { type: 'tool_use', id: call.id, name, input, recoveredFromText: true }
    : { type: 'tool_use', id: call.id, name, input };
}
