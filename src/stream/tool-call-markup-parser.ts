import type {
  DialectList,
  TextToolCall,
  TextToolCallReader,
  TextToolCallSink,
  WholeAnswerDialect,
} from './dialects/text-tool-call-dialect.js';
import { type AwaitedCalls, type LineHead, callsAfter, lineHeadAfter } from './markup-placement.js';
import { inlineCodeEnd } from './inline-code.js';
import { type Marker, type Markers, findMarker, markersFor } from './markup-markers.js';

/**
 * Finds tool calls written as text — which reach `content` when a server does not parse
 * the model's calls (llama.cpp without `--jinja`, older LM Studio / vLLM / Ollama
 * templates, raw WebLLM output) — in the dialects it is given, for registered tools only.
 *
 * What counts as a call (and what is only shown):
 * - a *tagged* form (`<tool_call>`, `[TOOL_CALLS]`, `<|python_tag|>`, `<|tool_call|>`,
 *   DeepSeek's `<｜tool▁calls▁begin｜>`, a ```` ```tool_code ```` fence) wherever it starts —
 *   except where a model shows or quotes text rather than calling: inside a code fence of
 *   any other kind or inline code (code the model shows is not run), on a Markdown block
 *   quote line (`> …`), followed by more prose (a call ends the model's turn, so markup
 *   with text after it was quoted: it is released as text, in place), or, for a form the
 *   template writes straight after the text (Mistral's `[TOOL_CALLS]`), on a line of its
 *   own after prose;
 * - an *untagged* form (a JSON call object, `[get_weather(city="Paris")]`,
 *   `functools[…]`) only as the whole answer: the same text inside prose is shown.
 *
 * Streaming without flicker: text that may still be a marker (`<tool_c` at the end of a
 * delta) or an answer that may still be a call (`[get_wea`) is held back only while it
 * could be; then it is released as text, or becomes calls and is hidden from the text.
 *
 * @example
 * const parser = new ToolCallMarkupParser(new Set(['get_weather']), sink, { tagged: [hermesDialect], wholeAnswer: [] });
 * parser.push('Sure.<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>');
 * parser.flush();
 * // sink.text('Sure.'); sink.toolCall({ name: 'get_weather', arguments: { city: 'Oslo' } }, '<tool_call>…</tool_call>')
 */
export class ToolCallMarkupParser implements TextToolCallReader {
  readonly #toolNames: ReadonlySet<string>;
  readonly #sink: TextToolCallSink;
  readonly #markers: Markers;
  /**
   * `start`: only white space so far (an untagged call may begin); `answer`: the answer
   * may be an untagged call; `text` / `fence`: ordinary text, outside or inside a code
   * fence; `block`: inside a tagged block.
   */
  #mode: 'start' | 'answer' | 'text' | 'fence' | 'code' | 'block' = 'start';
  /** The backticks that opened the inline code span being read. */
  #codeTicks = 0;
  #lineHead: LineHead = 'blank';
  /** Whether this answer has shown anything but white space. */
  #prose = false;
  /** Calls read from blocks, waiting for what follows them. */
  #awaited: AwaitedCalls | undefined;
  /** Held text: white space, the answer so far, a possible partial marker, or a block's body. */
  #held = '';
  #block: Marker | undefined;
  readonly #wholeAnswer: readonly WholeAnswerDialect[];
  /** The untagged dialects the answer may still be. */
  #candidates: readonly WholeAnswerDialect[];
  #sure = false;

  constructor(toolNames: ReadonlySet<string>, sink: TextToolCallSink, dialects: DialectList) {
    this.#toolNames = toolNames;
    this.#sink = sink;
    this.#wholeAnswer = dialects.wholeAnswer;
    this.#candidates = this.#wholeAnswer;
    this.#markers = markersFor(dialects.tagged);
  }

  /** Reads one piece of visible text. */
  push(piece: string): void {
    // Most pieces are a word of prose: shown as they are, in one pass over their characters.
    // Hot path: per text delta, written out (no plainText / lineHeadAfter calls).
    plain: if (this.#mode === 'text' && this.#held === '' && this.#awaited === undefined) {
      const starts = this.#markers.firstCodes;
      let head = this.#lineHead;
      for (let index = 0; index < piece.length; index++) {
        const code = piece.charCodeAt(index);
        // Markers start with ASCII characters; any other character is prose.
        if (code < 0x80 && starts[code] === 1) break plain; // may start a marker or inline code
        // The line head, as lineHeadAfter tells it: a new line is blank until a character
        // other than white space says whether it is a block quote (`>`).
        if (code === 0x0a) head = 'blank';
        else if (head === 'blank' && code !== 0x20 && code !== 0x09 && code !== 0x0d)
          head = code === 0x3e ? 'quote' : 'other';
      }
      this.#lineHead = head;
      if (!this.#prose) this.#prose = /\S/.test(piece);
      this.#sink.text(piece);
      return;
    }
    let input = piece;
    while (input !== '') {
      switch (this.#mode) {
        case 'start':
        case 'answer':
          input = this.#readAnswer(input);
          break;
        case 'block':
          input = this.#readBlock(input);
          break;
        case 'text':
        case 'fence':
          input = this.#readText(input);
          break;
        case 'code':
          input = this.#readCode(input);
          break;
      }
    }
  }

  /** The text ended: settle what is held (an unclosed block, an answer that may be a call). */
  flush(): void {
    const held = this.#held;
    this.#held = '';
    const mode = this.#mode;
    this.#mode = 'text';
    this.#sure = false;
    if (mode === 'block' && this.#block?.dialect !== undefined) {
      this.#settle(this.#block, held, true);
    } else if (mode === 'answer') {
      const answer = held.trim();
      for (const dialect of this.#candidates) {
        const calls = dialect.parse(answer, this.#toolNames);
        if (calls !== undefined) {
          this.#report(calls, held);
          return;
        }
      }
      // Not a call: ordinary text, which may still hold tagged calls.
      this.push(held);
      this.flush();
      return;
    } else if (held !== '') {
      this.#text(held);
    }
    const awaited = this.#awaited;
    this.#awaited = undefined;
    if (awaited !== undefined) {
      this.#report(awaited.calls, awaited.markup);
      if (awaited.after !== '') this.#text(awaited.after);
    }
  }

  /**
   * Hands back the held text (a partial marker, an open block with its marker, an answer
   * that may be a call) without reporting it: the caller learned it was reasoning. What
   * follows starts a new answer.
   */
  takeHeld(): string {
    const awaited = this.#awaited === undefined ? '' : this.#awaited.markup + this.#awaited.after;
    this.#awaited = undefined;
    const held =
      awaited + (this.#mode === 'block' ? (this.#block?.text ?? '') + this.#held : this.#held);
    this.#held = '';
    this.#mode = 'start';
    this.#block = undefined;
    this.#candidates = this.#wholeAnswer;
    this.#sure = false;
    this.#prose = false;
    this.#lineHead = 'blank';
    return held;
  }

  /** At the start of the answer: hold it while it may be an untagged call. */
  #readAnswer(input: string): string {
    this.#held += input;
    if (this.#sure) return '';
    const first = this.#held.search(/\S/);
    if (first === -1) return '';
    const answer = this.#held.slice(first);
    if (this.#mode === 'start') {
      const found = findMarker(answer, this.#markers, false);
      // A marker (or what may become one) opening the answer: tagged blocks come first.
      if (found?.index === 0) return found.kind === 'partial' ? '' : this.#toText();
    }
    const viable = this.#candidates.map((dialect) => dialect.viable(answer, this.#toolNames));
    this.#candidates = this.#candidates.filter((_dialect, index) => viable[index] !== 'no');
    if (this.#candidates.length === 0) return this.#toText();
    // Sure enough to hold the rest of the answer without asking again.
    this.#sure = viable.includes('yes');
    this.#mode = 'answer';
    return '';
  }

  /** Gives up on an untagged call: what was held is read again as ordinary text. */
  #toText(): string {
    const held = this.#held;
    this.#held = '';
    this.#mode = 'text';
    return held;
  }

  #readText(input: string): string {
    const text = this.#held + input;
    this.#held = '';
    const found = findMarker(text, this.#markers, this.#mode === 'fence');
    if (found === undefined) {
      this.#text(text);
      return '';
    }
    if (found.index > 0) this.#text(text.slice(0, found.index));
    if (found.kind === 'partial') {
      this.#held = text.slice(found.index);
      return '';
    }
    if (found.kind === 'tick') {
      this.#text(text.slice(found.index, found.index + found.length));
      this.#mode = 'code';
      this.#codeTicks = found.length;
      return text.slice(found.index + found.length);
    }
    const { marker } = found;
    const rest = text.slice(found.index + marker.text.length);
    if (
      marker.dialect === undefined ||
      this.#lineHead === 'quote' ||
      (marker.dialect.sameLine === 'text-before' && this.#prose && this.#lineHead === 'blank')
    ) {
      // A fence; or markup on a block-quote line, or on a line of its own after prose
      // where the template writes it after the text: shown as the model quoted it.
      this.#text(marker.text);
      if (marker.dialect === undefined) this.#mode = this.#mode === 'fence' ? 'text' : 'fence';
    } else {
      this.#mode = 'block';
      this.#block = marker;
    }
    return rest;
  }

  /** Inside inline code: only the run of backticks that opened it ends it. */
  #readCode(input: string): string {
    const text = this.#held + input;
    this.#held = '';
    const end = inlineCodeEnd(text, this.#codeTicks);
    if (end >= 0) {
      this.#text(text.slice(0, end));
      this.#mode = 'text';
      return text.slice(end);
    }
    this.#text(text.slice(0, ~end));
    this.#held = text.slice(~end);
    return '';
  }

  /** Shown text: first releases awaited calls as text if it is prose after them. */
  #text(piece: string): void {
    let shown = piece;
    const awaited = this.#awaited;
    if (awaited !== undefined) {
      const after = awaited.after + piece;
      const verdict = callsAfter(after);
      if (verdict === 'undecided') {
        awaited.after = after;
        return;
      }
      this.#awaited = undefined;
      if (verdict === 'standing') {
        this.#report(awaited.calls, awaited.markup);
        shown = after;
      } else {
        shown = awaited.markup + after;
      }
    }
    this.#lineHead = lineHeadAfter(this.#lineHead, shown);
    if (!this.#prose) this.#prose = /\S/.test(shown);
    this.#sink.text(shown);
  }

  #readBlock(input: string): string {
    const block = this.#block;
    if (block?.dialect === undefined) return this.#toText();
    const scanned = this.#held.length;
    this.#held += input;
    const end = block.dialect.end(this.#held, {
      opener: block.text,
      toolNames: this.#toolNames,
      scanned,
    });
    if (end === 'more') return '';
    const body = this.#held;
    this.#held = '';
    this.#mode = 'text';
    if (end === 'not') {
      // Prose that mentions the marker: released now rather than at the end.
      this.#text(block.text);
      return body;
    }
    this.#settle(block, body.slice(0, end), false);
    return body.slice(end);
  }

  #settle(block: Marker, body: string, atEnd: boolean): void {
    const calls = block.dialect?.parse(body, {
      opener: block.text,
      toolNames: this.#toolNames,
      scanned: body.length,
      atEnd,
    });
    if (calls === undefined || calls.length === 0) {
      this.#text(block.text + body);
      return;
    }
    const awaited = this.#awaited;
    if (block.dialect?.sameLine === 'text-after') {
      // The template writes the answer right after the block: these calls stand now.
      this.#awaited = undefined;
      if (awaited !== undefined) this.#report(awaited.calls, awaited.markup);
      this.#report(calls, (awaited?.after ?? '') + block.text + body);
      return;
    }
    if (awaited === undefined) this.#awaited = { calls, markup: block.text + body, after: '' };
    else {
      awaited.calls.push(...calls);
      awaited.markup += awaited.after + block.text + body;
      awaited.after = '';
    }
  }

  #report(calls: readonly TextToolCall[], markup: string): void {
    calls.forEach((call, index) => this.#sink.toolCall(call, index === 0 ? markup : ''));
  }
}
