import { matchTag } from './match-tag.js';
import {
  CALL_MARKERS_ENDING_REASONING,
  MID_THOUGHT_HOLD,
  REASONING_TAGS,
  type ReasoningTags,
} from './reasoning-tags.js';

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

/** Options for {@link ThinkTagSplitter}. */
export interface ThinkTagOptions {
  /**
   * The model starts mid-thought (its template ends the prompt with `<think>`): an answer
   * that opens with no tag is held as possible reasoning for up to {@link MID_THOUGHT_HOLD}
   * characters, so a lone `</think>` within them turns them into reasoning, not text.
   */
  startsInReasoning?: boolean;
}

/** Shared empty list: the search for a tag inside a thought runs per `<`, so nothing is made there. */
const NO_MARKERS: readonly string[] = [];
const LONGEST_CLOSE = Math.max(...REASONING_TAGS.map((tags) => tags.close.length));
/** Every open and close tag with its pair, listed once (no allocation per `<`). */
const EVERY_TAG: readonly (readonly [ReasoningTags, string])[] = REASONING_TAGS.flatMap((tags) => [
  [tags, tags.open] as const,
  [tags, tags.close] as const,
]);

/**
 * Splits reasoning blocks out of streamed content — `<think>…</think>`, Seed-OSS
 * `<seed:think>`, Mistral `[THINK]`, Gemma 4 `<|channel>thought…<channel|>`, Apertus
 * `<|inner_prefix|>` ({@link REASONING_TAGS}). LM Studio, WebLLM, wllama and llama.cpp with
 * `--reasoning-format none` leave them in `content`, and a tag may be cut across deltas
 * (`<thi` + `nk>`): the possible start of a tag at the end of a delta is held back until the
 * next delta decides it.
 *
 * Cheap on the hot path: a delta without `<` or `[` is passed on whole, without copying.
 *
 * @example
 * const splitter = new ThinkTagSplitter(sink);
 * splitter.push('<thi'); splitter.push('nk>plan</think>Hi'); // reasoning 'plan', text 'Hi'
 * splitter.flush();
 */
export class ThinkTagSplitter {
  readonly #sink: ThinkTagSink;
  /** The open block's tags, while inside one. */
  #inThink: ReasoningTags | undefined;
  /**
   * The thought since a call marker opened inside it ({@link ReasoningTags.callsEnd}), held:
   * the block's closing tag makes it reasoning; the end of the stream, the answer from the
   * marker on (the model called without closing its thought).
   */
  #pending: string | undefined;
  /** Where the marker starts in {@link #pending}. */
  #pendingCall = 0;
  #sawTag = false;
  /** The possible start of a tag at the end of the last delta. */
  #held = '';
  /** Models write a newline after a tag; it is layout, not content. */
  #trimLeading = false;
  /** The start of an answer held as possible reasoning (a model that starts mid-thought). */
  #midThought: string | undefined;

  constructor(sink: ThinkTagSink, options: ThinkTagOptions = {}) {
    this.#sink = sink;
    if (options.startsInReasoning === true) this.#midThought = '';
  }

  /**
   * True when a delta without `<` or `[` would pass through unchanged as text (nothing
   * held, outside any block, no start of an answer held as possible reasoning).
   */
  get passesPlainText(): boolean {
    return (
      this.#held === '' &&
      this.#inThink === undefined &&
      this.#midThought === undefined &&
      !this.#trimLeading
    );
  }

  /** Splits one content delta. */
  push(piece: string): void {
    if (this.#midThought !== undefined) {
      this.#holdMidThought(piece);
      return;
    }
    let input = piece;
    if (this.#held !== '') {
      input = this.#held + piece;
      this.#held = '';
    }
    let start = 0;
    let from = 0;
    for (;;) {
      const at = nextTagStart(input, from);
      if (at === -1) break;
      const found = this.#match(input, at);
      if (found === undefined) {
        from = at + 1;
        continue;
      }
      const [tags, tag, match] = found;
      if (this.#inThink !== undefined && tag !== tags.close) {
        // A call marker inside the thought (or the start of one): hold from here on.
        if (match === 'full' && this.#pending === undefined) {
          this.#pending = '';
          this.#emit(input.slice(start, at));
          this.#pendingCall = this.#pending.length;
          start = at;
        }
        from = at + 1;
        if (match === 'full') continue;
      }
      if (match === 'partial') {
        // Before any tag, a partial one may be a lone `</think>` that makes this delta's
        // text reasoning: hold the delta's text with it (one delta at most).
        const holdFrom = this.#inThink !== undefined || this.#sawTag ? at : start;
        this.#emit(input.slice(start, holdFrom));
        this.#held = input.slice(holdFrom);
        return;
      }
      if (tag === tags.open) {
        this.#emit(input.slice(start, at));
        this.#inThink = tags;
      } else if (this.#inThink !== undefined) {
        this.#emit(input.slice(start, at));
        const pending = this.#pending;
        this.#pending = undefined;
        if (pending !== undefined && pending !== '') this.#sink.reasoning(pending);
        this.#inThink = undefined;
      } else if (tags.lone === 'hide') {
        // A stray special token: dropped, the text around it joined as it was.
        this.#emit(input.slice(start, at));
        start = from = at + tag.length;
        continue;
      } else {
        // Qwen3 templates that open `<think>` in the prompt: the output so far was reasoning.
        this.#sink.textWasReasoning();
        this.#inThink = tags;
        this.#emit(input.slice(start, at));
        this.#inThink = undefined;
      }
      this.#sawTag = true;
      this.#trimLeading = true;
      start = from = at + tag.length;
    }
    this.#emit(start === 0 ? input : input.slice(start));
  }

  /**
   * The server splits reasoning itself (a `reasoning_content` field arrived): the content
   * is the answer, so an answer held as possible reasoning is released as text.
   */
  serverSplitsReasoning(): void {
    this.#releaseMidThought();
  }

  /** The stream ended: a held-back partial tag was ordinary content after all. */
  flush(): void {
    this.#releaseMidThought();
    const pending = this.#pending;
    if (pending !== undefined) {
      // The model called from inside its thought and stopped: the call is the answer.
      this.#pending = undefined;
      if (this.#pendingCall > 0) this.#sink.reasoning(pending.slice(0, this.#pendingCall));
      this.#inThink = undefined;
      this.#sink.text(pending.slice(this.#pendingCall));
    }
    const held = this.#held;
    this.#held = '';
    this.#emit(held);
  }

  /** The tags whose open or close tag is (or may become) `input` at `at`, if any. */
  #match(input: string, at: number): [ReasoningTags, string, 'full' | 'partial'] | undefined {
    if (this.#inThink !== undefined) {
      const tags = this.#inThink;
      const match = matchTag(input, at, tags.close);
      if (match !== 'none') return [tags, tags.close, match];
      for (const marker of tags.callsEnd ?? NO_MARKERS) {
        const call = matchTag(input, at, marker);
        if (call !== 'none') return [tags, marker, call];
      }
      return undefined;
    }
    let partial: [ReasoningTags, string, 'partial'] | undefined;
    for (const [tags, tag] of EVERY_TAG) {
      const match = matchTag(input, at, tag);
      // A `</think>` after a closed think block is not ours to remove: keep it as text.
      if (match === 'none' || (tag === tags.close && this.#sawTag && tags.lone !== 'hide'))
        continue;
      if (match === 'full') return [tags, tag, match];
      partial ??= [tags, tag, match];
    }
    return partial;
  }

  /**
   * Holds the start of the answer while it may be reasoning: until a closing tag (or a call
   * that ends reasoning) starts within {@link MID_THOUGHT_HOLD} characters, an opening tag
   * shows the model wrote its own, or the hold is full. Decided on the text alone, so the
   * result does not depend on how the deltas were cut.
   */
  #holdMidThought(piece: string): void {
    const held = (this.#midThought ?? '') + piece;
    this.#midThought = held;
    const first = held.search(/\S/);
    if (first === -1) return;
    // The model opened its own block (or may be opening it): read as usual.
    const opening = REASONING_TAGS.map((tags) => matchTag(held, first, tags.open));
    if (opening.includes('full')) {
      this.#releaseMidThought();
      return;
    }
    if (opening.includes('partial')) return;
    const end = endOfMidThought(held);
    if (end !== undefined) {
      this.#midThought = undefined;
      this.#sawTag = true;
      if (end.index > 0) this.#sink.reasoning(held.slice(0, end.index));
      this.#trimLeading = end.tag !== undefined;
      this.push(held.slice(end.index + (end.tag?.length ?? 0)));
      return;
    }
    if (held.length >= MID_THOUGHT_HOLD + LONGEST_CLOSE) this.#releaseMidThought();
  }

  #releaseMidThought(): void {
    const held = this.#midThought;
    if (held === undefined) return;
    this.#midThought = undefined;
    if (held !== '') this.push(held);
  }

  #emit(segment: string): void {
    if (segment === '') return;
    let piece = segment;
    if (this.#trimLeading) {
      piece = piece.trimStart();
      if (piece === '') return;
      this.#trimLeading = false;
    }
    if (this.#pending !== undefined) this.#pending += piece;
    else if (this.#inThink !== undefined) this.#sink.reasoning(piece);
    else this.#sink.text(piece);
  }
}

/** The first `<` or `[` in `input` from `from`, or -1. */
function nextTagStart(input: string, from: number): number {
  const less = input.indexOf('<', from);
  const bracket = input.indexOf('[', from);
  if (less === -1) return bracket;
  if (bracket === -1) return less;
  return less < bracket ? less : bracket;
}

/**
 * Where reasoning held from the start of the answer ends, if a closing tag (consumed) or a
 * call marker (kept) starts within the first {@link MID_THOUGHT_HOLD} characters.
 */
function endOfMidThought(held: string): { index: number; tag: string | undefined } | undefined {
  let best: { index: number; tag: string | undefined } | undefined;
  const consider = (marker: string, consumed: boolean) => {
    const index = held.indexOf(marker);
    if (index !== -1 && index < MID_THOUGHT_HOLD && (best === undefined || index < best.index))
      best = { index, tag: consumed ? marker : undefined };
  };
  for (const tags of REASONING_TAGS)
    if (tags.lone === 'reasoning-before') consider(tags.close, true);
  for (const marker of CALL_MARKERS_ENDING_REASONING) consider(marker, false);
  return best;
}
