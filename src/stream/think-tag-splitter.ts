import { matchTag } from './match-tag.js';

/** Where {@link ThinkTagSplitter} sends what it splits. */
export interface ThinkTagSink {
  /** Visible text, outside any think block. */
  text(piece: string): void;
  /** Text inside a think block. */
  reasoning(piece: string): void;
  /**
   * A `</think>` arrived without any `<think>` before it: the stream started in reasoning
   * (the template put `<think>` in the prompt), so the text reported so far was reasoning.
   */
  textWasReasoning(): void;
}

const OPEN_TAG = '<think>';
const CLOSE_TAG = '</think>';
const SLASH = 0x2f; // '/'

/**
 * Splits `<think>…</think>` out of streamed content into reasoning. LM Studio, WebLLM
 * (Qwen3) and llama.cpp with `--reasoning-format none` leave the tags in `content`, and
 * a tag may be cut across deltas (`<thi` + `nk>`): the possible start of a tag at the
 * end of a delta is held back until the next delta decides it.
 *
 * Cheap on the hot path: a delta without `<` is passed on whole, without copying.
 *
 * @example
 * const splitter = new ThinkTagSplitter(sink);
 * splitter.push('<thi'); splitter.push('nk>plan</think>Hi'); // reasoning 'plan', text 'Hi'
 * splitter.flush();
 */
export class ThinkTagSplitter {
  readonly #sink: ThinkTagSink;
  #inThink = false;
  #sawTag = false;
  /** The possible start of a tag at the end of the last delta. */
  #held = '';
  /** Models write a newline after a tag; it is layout, not content. */
  #trimLeading = false;

  constructor(sink: ThinkTagSink) {
    this.#sink = sink;
  }

  /** Splits one content delta. */
  push(piece: string): void {
    let input = piece;
    if (this.#held !== '') {
      input = this.#held + piece;
      this.#held = '';
    }
    let start = 0;
    let from = 0;
    for (;;) {
      const lessThan = input.indexOf('<', from);
      if (lessThan === -1) break;
      const tag = this.#inThink || input.charCodeAt(lessThan + 1) === SLASH ? CLOSE_TAG : OPEN_TAG;
      const match = matchTag(input, lessThan, tag);
      // A `</think>` after a closed think block is not ours to remove: keep it as text.
      const stray = match !== 'none' && tag === CLOSE_TAG && !this.#inThink && this.#sawTag;
      if (match === 'none' || stray) {
        from = lessThan + 1;
        continue;
      }
      if (match === 'partial') {
        // Before any tag, a partial one may be a lone `</think>` that makes this delta's
        // text reasoning: hold the delta's text with it (one delta at most).
        const holdFrom = this.#inThink || this.#sawTag ? lessThan : start;
        this.#emit(input.slice(start, holdFrom));
        this.#held = input.slice(holdFrom);
        return;
      }
      if (tag === OPEN_TAG) {
        this.#emit(input.slice(start, lessThan));
        this.#inThink = true;
      } else if (this.#inThink) {
        this.#emit(input.slice(start, lessThan));
        this.#inThink = false;
      } else {
        // Qwen3 templates that open `<think>` in the prompt: the output so far was reasoning.
        this.#sink.textWasReasoning();
        this.#inThink = true;
        this.#emit(input.slice(start, lessThan));
        this.#inThink = false;
      }
      this.#sawTag = true;
      this.#trimLeading = true;
      start = from = lessThan + tag.length;
    }
    this.#emit(start === 0 ? input : input.slice(start));
  }

  /** The stream ended: a held-back partial tag was ordinary content after all. */
  flush(): void {
    const held = this.#held;
    this.#held = '';
    this.#emit(held);
  }

  #emit(segment: string): void {
    if (segment === '') return;
    let piece = segment;
    if (this.#trimLeading) {
      piece = piece.trimStart();
      if (piece === '') return;
      this.#trimLeading = false;
    }
    if (this.#inThink) this.#sink.reasoning(piece);
    else this.#sink.text(piece);
  }
}
