import { isRecord } from '../types/is-record.js';
import { nonEmptyString } from './chunk-reader.js';
import { matchTag } from './match-tag.js';

/** Where {@link ToolCallMarkupParser} sends what it reads. */
export interface ToolCallMarkupSink {
  /** Ordinary text (including markup that turned out not to be a call). */
  text(piece: string): void;
  /**
   * A call written as markup, for a registered tool, and the markup it was read from.
   * `arguments` is not validated here.
   */
  toolCall(
    call: { name: string; arguments: string | Record<string, unknown> },
    markup: string,
  ): void;
}

const OPEN_TAG = '<tool_call>';
const CLOSE_TAG = '</tool_call>';

/**
 * Finds Hermes/Qwen tool calls written as text — `<tool_call>{"name":…,"arguments":…}</tool_call>`
 * — which reach `content` when the server's tool-call parser fails (llama.cpp, vLLM or
 * Ollama with a template they do not recognise, WebLLM). A block becomes a call only when
 * its JSON names a registered tool; otherwise it is released as ordinary text.
 *
 * Text that might be the start of the markup (`<tool_c` at the end of a delta) is held
 * back only while it still could be; a delta without `<` passes through unscanned.
 *
 * @example
 * const parser = new ToolCallMarkupParser(new Set(['get_weather']), sink);
 * parser.push('Sure.<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>');
 * parser.flush();
 * // sink.text('Sure.'); sink.toolCall({ name: 'get_weather', arguments: { city: 'Oslo' } }, '<tool_call>…</tool_call>')
 */
export class ToolCallMarkupParser {
  readonly #toolNames: ReadonlySet<string>;
  readonly #sink: ToolCallMarkupSink;
  /** Outside markup: a possible partial `<tool_call>`; inside: the block's body so far. */
  #held = '';
  #inside = false;

  constructor(toolNames: ReadonlySet<string>, sink: ToolCallMarkupSink) {
    this.#toolNames = toolNames;
    this.#sink = sink;
  }

  /** Reads one piece of visible text. */
  push(piece: string): void {
    let input = piece;
    for (;;) {
      if (this.#inside) {
        const searchFrom = Math.max(0, this.#held.length - CLOSE_TAG.length + 1);
        this.#held += input;
        if (!startsLikeObject(this.#held)) {
          // Prose that mentions the tag: release it now rather than at the end.
          input = this.#held;
          this.#held = '';
          this.#inside = false;
          this.#sink.text(OPEN_TAG);
          continue;
        }
        const close = this.#held.indexOf(CLOSE_TAG, searchFrom);
        if (close === -1) return;
        const body = this.#held.slice(0, close);
        input = this.#held.slice(close + CLOSE_TAG.length);
        this.#held = '';
        this.#inside = false;
        this.#settle(body, true);
        if (input === '') return;
        continue;
      }
      if (this.#held !== '') {
        input = this.#held + input;
        this.#held = '';
      }
      const open = this.#findOpen(input);
      if (open === -1) {
        if (input !== '') this.#sink.text(input);
        return;
      }
      if (open > 0) this.#sink.text(input.slice(0, open));
      if (matchTag(input, open, OPEN_TAG) === 'partial') {
        this.#held = input.slice(open);
        return;
      }
      this.#inside = true;
      input = input.slice(open + OPEN_TAG.length);
    }
  }

  /** The text ended: settle an unclosed block (Qwen may stop at `</tool_call>`) or release it. */
  flush(): void {
    const held = this.#held;
    this.#held = '';
    if (this.#inside) {
      this.#inside = false;
      this.#settle(held, false);
    } else if (held !== '') {
      this.#sink.text(held);
    }
  }

  /**
   * Hands back the held text (a partial tag, or an open block with its tag) without
   * reporting it: the caller learned it was reasoning, not text.
   */
  takeHeld(): string {
    const held = this.#inside ? OPEN_TAG + this.#held : this.#held;
    this.#held = '';
    this.#inside = false;
    return held;
  }

  /** Index of a full or partial `<tool_call>`, or -1. */
  #findOpen(input: string): number {
    let from = 0;
    for (;;) {
      const lessThan = input.indexOf('<', from);
      if (lessThan === -1 || matchTag(input, lessThan, OPEN_TAG) !== 'none') return lessThan;
      from = lessThan + 1;
    }
  }

  #settle(body: string, closed: boolean): void {
    const call = parseCall(body);
    if (call !== undefined && this.#toolNames.has(call.name)) {
      this.#sink.toolCall(call, OPEN_TAG + body + (closed ? CLOSE_TAG : ''));
      return;
    }
    this.#sink.text(OPEN_TAG + body + (closed ? CLOSE_TAG : ''));
  }
}

/** True while `body` is blank or starts (after whitespace) with `{`. */
function startsLikeObject(body: string): boolean {
  for (let index = 0; index < body.length; index++) {
    const code = body.charCodeAt(index);
    if (code === 0x7b) return true; // '{'
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return false;
  }
  return true;
}

/** `{"name": …, "arguments": …}` (or `parameters`, as some Qwen fine-tunes write it). */
function parseCall(
  body: string,
): { name: string; arguments: string | Record<string, unknown> } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const name = nonEmptyString(value.name);
  if (name === undefined) return undefined;
  const args = value.arguments ?? value.parameters;
  if (args === undefined || args === null) return { name, arguments: {} };
  if (isRecord(args)) return { name, arguments: args };
  // A string is passed on as raw arguments text; anything else is reported as invalid input.
  return { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}
