/** A tool call read from text, before its arguments are checked. */
export interface TextToolCall {
  name: string;
  /** An object, or the raw arguments text (reported as invalid input unless it is an object). */
  arguments: string | Record<string, unknown>;
  /** The call id the text carried (Mistral `[CALL_ID]`). */
  id?: string;
}

/** How much of a block a {@link TaggedDialect} has seen. */
export type BlockEnd =
  /** The block ends at this index of the body (just past its closing marker or value). */
  | number
  /** Not finished: it may still become a call. */
  | 'more'
  /** It cannot be a call any more: release the opener as text. */
  | 'not';

/** What a {@link TaggedDialect} is told besides the block's text. */
export interface BlockContext {
  /** The marker that opened the block. */
  opener: string;
  toolNames: ReadonlySet<string>;
  /**
   * How much of the body an earlier `end` call saw (0 the first time): a closing marker
   * can only be found from `scanned - marker.length + 1` on, so long blocks are not
   * searched again from their start on every delta.
   */
  scanned: number;
}

/**
 * A way of writing tool calls in text that starts with a marker (`<tool_call>`,
 * `[TOOL_CALLS]`, …), wherever it appears outside a code fence.
 */
export interface TaggedDialect {
  /** The markers that open a block. */
  readonly openers: readonly string[];
  /**
   * Text the model's template writes on the same line as the block, which therefore does
   * not mark it as quoted: `'text-before'` — the opener follows the text with no line break
   * (Mistral's `[TOOL_CALLS]` token), so an opener starting a line of its own after prose was
   * quoted, and is shown; `'text-after'` — the answer follows the block
   * (LFM2: `<|tool_call_end|>Checking…`), so prose after it on its line leaves the calls
   * standing. Absent: a block may start a new line (Hermes templates put `\n<tool_call>`
   * after the text), and a call ends the model's turn, so prose after it on its line means
   * it was quoted.
   */
  readonly sameLine?: 'text-before' | 'text-after';
  /** Where the block whose text after the opener is `body` ends, as far as `body` tells. */
  end(body: string, context: BlockContext): BlockEnd;
  /**
   * The calls of a finished block (`atEnd`: the text ended before the block was closed).
   * `undefined` when the block is not a call of a registered tool: it is released as text.
   */
  parse(body: string, context: BlockContext & { atEnd: boolean }): TextToolCall[] | undefined;
}

/** Whether the answer so far can be a {@link WholeAnswerDialect}'s call. */
export type Viability = 'no' | 'maybe' | 'yes';

/**
 * A way of writing tool calls that counts only as the whole answer (a bare JSON object,
 * `[get_weather(city="Paris")]`, `functools[…]`): the answer is held while it may be one,
 * and is a call only when all of it parses.
 */
export interface WholeAnswerDialect {
  /**
   * Whether `answer` (the text so far, from its first non-space character) can still be
   * this dialect's call: `yes` once sure enough to hold the rest without asking again.
   */
  viable(answer: string, toolNames: ReadonlySet<string>): Viability;
  /** The calls of the whole answer (trimmed), or `undefined` when it is not one. */
  parse(answer: string, toolNames: ReadonlySet<string>): TextToolCall[] | undefined;
}

/** The dialects a reader looks for, in the order it tries them. */
export interface DialectList {
  tagged: readonly TaggedDialect[];
  wholeAnswer: readonly WholeAnswerDialect[];
}

/** Where a {@link TextToolCallReader} sends what it reads. */
export interface TextToolCallSink {
  /** Ordinary text (including markup that turned out not to be a call). */
  text(piece: string): void;
  /**
   * A call written as text, for a registered tool, and the markup it was read from (`''`
   * for the second and later calls of one block). `arguments` is not validated here.
   */
  toolCall(call: TextToolCall, markup: string): void;
}

/** Reads the visible text of one response, piece by piece, for calls written as text. */
export interface TextToolCallReader {
  push(piece: string): void;
  /** The text ended: settle or release what is held. */
  flush(): void;
  /** Hands back the held text unreported (it was reasoning); what follows is a new answer. */
  takeHeld(): string;
}

/**
 * How a `ChunkAggregator` reads tool calls written as text (`loadTextToolCallDialects()`
 * gives every dialect); without it, calls in the text stay text.
 */
export interface TextToolCallDialects {
  /**
   * A reader for one response, for the registered tools; `model` (the model asked for)
   * puts its family's forms first where two readings are possible.
   */
  createReader(
    toolNames: ReadonlySet<string>,
    sink: TextToolCallSink,
    options?: { model?: string },
  ): TextToolCallReader;
  /**
   * Splits streamed arguments that glue several calls together (vLLM's Mistral parser)
   * into the first call's arguments and the calls after it; absent: never split.
   */
  splitGluedCalls?: (
    text: string,
    toolNames: ReadonlySet<string>,
  ) => [Record<string, unknown>, ...TextToolCall[]] | undefined;
}
