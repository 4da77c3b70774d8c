import { AgentError } from '../errors/agent-error.js';
import { STREAM_DONE, WAITING_CHUNK } from '../types/chat-request.js';
import type { Waiting } from '../types/events.js';
import { isRecord } from '../types/is-record.js';
import type { Usage } from '../types/usage.js';
import type { AssistantTurn, StreamEvent } from './assistant-turn.js';
import { type ContentPartSink, readChunkError, readContentParts } from './chunk-reader.js';
import { generateToolCallId } from './generate-tool-call-id.js';
import { HarmonyChannelSplitter } from './harmony-channel-splitter.js';
import { startsInReasoning } from './model-family.js';
import { type ThinkTagSink, ThinkTagSplitter } from './think-tag-splitter.js';
import { ToolCallAccumulator, type ToolCallDelta } from './tool-call-accumulator.js';
import type { TextToolCallReader } from './dialects/text-tool-call-dialect.js';
import type { TextToolCallDialects } from './text-tool-call-dialects.js';
import { readUsage } from './usage-reader.js';

/** Options for {@link ChunkAggregator} and `aggregateStream`. */
export interface AggregateOptions {
  /** Registered tool names: calls written as text in content become real calls only for these. */
  toolNames?: ReadonlySet<string>;
  /**
   * How to read tool calls written as text (`<tool_call>`, `[TOOL_CALLS]`, …): the loop
   * passes every dialect, from `loadTextToolCallDialects()`. Without it, such calls stay text.
   */
  dialects?: TextToolCallDialects;
  /**
   * The model asked for: its family's markup is read first where two readings are
   * possible, and a model known to start mid-thought (its template ends the prompt with
   * `<think>`: QwQ, Qwen3 thinking, DeepSeek R1 / V3.1 / V3.2, MiniMax M2, GLM-4.7 / 5) has
   * the start of a tag-less answer held as possible reasoning.
   */
  model?: string | undefined;
  /**
   * What the server said (the loop passes llama.cpp's template or Ollama's capabilities, once
   * asked); overrides the name patterns: `true` holds the start of an answer that shows no
   * opening tag as possible reasoning (up to 512 characters), so a lone `</think>` makes it
   * reasoning rather than text; `false` never holds. Either way a reasoning field
   * (`reasoning_content`, `reasoning`, a thinking part) ends the hold at once: the server
   * splits the thought itself.
   */
  startsInReasoning?: boolean | undefined;
  /**
   * `AgentOptions.textMarkup`, as the loop passes it: `toolCalls: 'off'` reads no call from
   * the text; its `startsInReasoning` (the app's word) comes first, then the server's
   * (above), then the model's name.
   */
  textMarkup?: { toolCalls?: 'read' | 'ask' | 'off'; startsInReasoning?: boolean } | undefined;
  /**
   * Id generator for calls without id (default: 9 random alphanumeric characters — some
   * Mistral templates reject others).
   */
  generateId?: () => string;
  /**
   * Stops reading when aborted (`aggregateStream` only): for engines that keep producing
   * chunks after an abort (a WebLLM engine ignores the signal mid-generation).
   */
  signal?: AbortSignal;
  /**
   * Told, once per chunk, about each streamed tool call (`delta.tool_calls`) whose id,
   * name or arguments that chunk changed — with the whole arguments text so far — so a UI
   * can show arguments as they arrive. Calls are still reported whole at the end. Nothing
   * is collected without it. A throwing listener breaks the stream: wrap it.
   */
  onToolCallDelta?: (delta: ToolCallDelta) => void;
}

/** What {@link ChunkAggregator.end} returns. */
export interface AggregatorResult {
  /** Held-back text released at the end, then every call (`tool_use` / `tool_use_error`) in call order. */
  events: readonly StreamEvent[];
  turn: AssistantTurn;
}

const NO_EVENTS: readonly StreamEvent[] = Object.freeze([]);

/**
 * What {@link ChunkAggregator.push} returns for `[DONE]` (no events, like any empty
 * answer): a reader tells the end by identity, with no call per chunk to ask. Nothing
 * after it is read.
 */
export const STREAM_ENDED: readonly StreamEvent[] = Object.freeze([]);

/**
 * The synchronous core of `aggregateStream`: feed it chat-completion chunks (`unknown`
 * wire data) one by one and it returns the text and reasoning deltas each one adds; at
 * the end it settles the tool calls, finish reason and usage. Knows every local-server
 * quirk (see the notes beside each reader); never throws on odd shapes, only on a chunk
 * that carries a server error.
 *
 * @example
 * const aggregator = new ChunkAggregator({ toolNames: new Set(['get_weather']) });
 * for (const chunk of chunks) render(aggregator.push(chunk));
 * if (aggregator.complete) { const { events, turn } = aggregator.end(); }
 */
export class ChunkAggregator {
  readonly #generateId: () => string;
  readonly #calls: ToolCallAccumulator;
  readonly #splitter: ThinkTagSplitter;
  readonly #harmony: HarmonyChannelSplitter;
  readonly #markup: TextToolCallReader | undefined;
  /** Where text outside reasoning and harmony messages goes: the markup reader, else out. */
  readonly #visibleText: (piece: string) => void;
  readonly #contentSink: ContentPartSink;
  #events: StreamEvent[] | undefined;
  #text = '';
  /** `#text` with the markup of calls read from it, kept once such a call exists. */
  #textWithMarkup: string | undefined;
  /** The markup of those calls, which no event reported. */
  #hiddenMarkup = '';
  #reasoning = '';
  #finishReason: string | null = null;
  #usage: Usage | undefined;
  #sawDone = false;
  /**
   * Both splitters pass a delta without `<` or `[` through unchanged (their
   * `passesPlainText`): read again only after something reached them, not per chunk.
   */
  #plain = false;
  #result: AggregatorResult | undefined;

  constructor(options: AggregateOptions = {}) {
    this.#generateId = options.generateId ?? generateToolCallId;
    const toolNames = options.toolNames;
    const dialects = options.dialects;
    this.#calls = new ToolCallAccumulator(options.onToolCallDelta, {
      ...(toolNames === undefined ? {} : { toolNames }),
      split: dialects?.splitGluedCalls,
    });
    const markup =
      toolNames !== undefined &&
      toolNames.size > 0 &&
      dialects !== undefined &&
      options.textMarkup?.toolCalls !== 'off'
        ? dialects.createReader(
            toolNames,
            {
              text: this.#emitText,
              toolCall: (call, markupText) => this.#onMarkupCall(call, markupText),
            },
            options.model === undefined ? {} : { model: options.model },
          )
        : undefined;
    this.#markup = markup;
    this.#visibleText = markup === undefined ? this.#emitText : (piece) => markup.push(piece);
    const thinkSink: ThinkTagSink = {
      text: this.#visibleText,
      reasoning: (piece) => this.#emitReasoning(piece),
      textWasReasoning: () => this.#onTextWasReasoning(),
    };
    this.#splitter = new ThinkTagSplitter(thinkSink, {
      startsInReasoning:
        options.textMarkup?.startsInReasoning ??
        options.startsInReasoning ??
        (options.model !== undefined && startsInReasoning(options.model)),
    });
    this.#harmony = new HarmonyChannelSplitter({
      text: (piece) => this.#splitter.push(piece),
      reasoning: (piece) => this.#emitReasoning(piece),
      toolCall: (call) => this.#calls.add(call),
    });
    this.#contentSink = {
      text: (piece) => this.#harmony.push(piece),
      reasoning: (piece) => {
        this.#splitter.serverSplitsReasoning();
        this.#emitReasoning(piece);
      },
    };
    this.#checkPlain();
  }

  /**
   * True when the stream may end here: `[DONE]` arrived, or a finish reason did (old
   * text-generation-webui never sends `[DONE]`). Otherwise an ending is a truncation.
   */
  get complete(): boolean {
    return this.#sawDone || this.#finishReason !== null;
  }

  /**
   * Reads one chunk and returns the text and reasoning deltas it adds (each piece once).
   * The returned array belongs to the caller. Chunks without a usable shape are ignored.
   *
   * @throws {AgentError} `STREAM_ERROR` when the chunk carries `error` (a failure the
   * server reported inside a 200 stream).
   */
  push(chunk: unknown): readonly StreamEvent[] {
    // Hot path: once per chunk, thousands of times a response, mostly in V8's interpreter
    // (no inlining): the guards are written out here rather than called, and a word of
    // prose makes no call but the one that shows it.
    // An array or a primitive has none of the fields read below: ignored as before.
    if (chunk === undefined || chunk === null || this.#sawDone) return NO_EVENTS;
    const fields = chunk as Record<string, unknown>;
    const object = fields.object;
    // STREAM_DONE, or a copy of it from another realm.
    if (object === STREAM_DONE.object) {
      this.#sawDone = true;
      return STREAM_ENDED;
    }
    if (object === WAITING_CHUNK) return [waitingEvent(fields)];
    if (fields.error !== undefined) this.#throwIfError(fields.error);
    const usage = fields.usage;
    if (usage !== undefined && usage !== null) {
      // vLLM with continuous usage stats sends usage on every chunk: the last one counts.
      const read = readUsage(usage);
      if (read !== undefined) this.#usage = read;
    }
    // The choice with index 0 (a missing index counts as 0): with `n > 1` servers interleave
    // choices, and only the first is ours. None in `choices: []` (usage-only and Azure
    // `prompt_filter_results` chunks) or without `choices`.
    const choices = fields.choices;
    if (!Array.isArray(choices)) return NO_EVENTS;
    let choice: Record<string, unknown> | undefined;
    for (let at = 0; at < choices.length; at++) {
      const item: unknown = choices[at];
      if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
      const index = (item as Record<string, unknown>).index;
      if (index === undefined || index === null || index === 0 || index === '0') {
        choice = item as Record<string, unknown>;
        break;
      }
    }
    if (choice === undefined) return NO_EVENTS;
    this.#events = undefined;
    const delta = choice.delta;
    if (delta !== undefined && delta !== null) {
      const fromDelta = delta as Record<string, unknown>; // nor has an array or a primitive
      // llama.cpp, older vLLM, LM Studio: reasoning_content; Ollama /v1, newer vLLM, Groq:
      // reasoning. One of them per delta, so a server sending both is not doubled. `""`
      // means "not sent".
      let reasoning = fromDelta.reasoning_content;
      if (typeof reasoning !== 'string' || reasoning === '') reasoning = fromDelta.reasoning;
      if (typeof reasoning === 'string' && reasoning !== '') {
        // It changes the splitter only while it holds a start as possible reasoning, when
        // `#plain` is false: that stays so until the next content delta that reaches them.
        this.#splitter.serverSplitsReasoning();
        this.#emitReasoning(reasoning);
      }
      const content = fromDelta.content;
      if (typeof content === 'string') {
        if (content === '') {
          // Nothing to read.
        } else if (
          // Most deltas are a word of prose: one check instead of each splitter's own scan.
          this.#plain &&
          content.indexOf('<') === -1 &&
          content.indexOf('[') === -1
        ) {
          const markup = this.#markup;
          if (markup === undefined) this.#emitText(content);
          else markup.push(content);
        } else {
          this.#harmony.push(content);
          this.#checkPlain();
        }
      } else if (Array.isArray(content)) {
        readContentParts(content as readonly unknown[], this.#contentSink); // isArray gives any[]: keep elements unknown
        this.#checkPlain();
      }
      const toolCalls = fromDelta.tool_calls;
      if (Array.isArray(toolCalls)) this.#calls.push(toolCalls as readonly unknown[]); // idem: elements checked one by one
    }
    const finishReason = choice.finish_reason;
    // Azure sends a trailing choice with `finish_reason: null`: the last non-null one stands.
    if (typeof finishReason === 'string' && finishReason !== '') this.#finishReason = finishReason;
    const events = this.#events;
    this.#events = undefined;
    return events ?? NO_EVENTS;
  }

  /** After text or reasoning reached the splitters: whether a word of prose may skip them. */
  #checkPlain(): void {
    this.#plain = this.#harmony.passesPlainText && this.#splitter.passesPlainText;
  }

  /**
   * The stream stopped early (cut, failed, aborted): releases text held back as a possible
   * tag start (`<thi`, `<tool_c`) and, since no call of this response will run, the markup
   * of calls read from the text — as text, after what was shown — so nothing that came is
   * lost.
   */
  flush(): readonly StreamEvent[] {
    this.#events = undefined;
    this.#release();
    this.#checkPlain(); // in case more chunks come (end() settles: nothing is read after it)
    if (this.#hiddenMarkup !== '') {
      const markup = this.#hiddenMarkup;
      this.#hiddenMarkup = '';
      this.#textWithMarkup = undefined;
      this.#calls.discardWholeCalls();
      this.#emitText(markup);
    }
    const events = this.#events;
    this.#events = undefined;
    return events ?? NO_EVENTS;
  }

  #release(): void {
    this.#harmony.flush();
    this.#splitter.flush();
    this.#markup?.flush();
  }

  /** Settles the response: the final events (released text, then every call) and the turn. */
  end(): AggregatorResult {
    if (this.#result !== undefined) return this.#result;
    this.#events = undefined;
    this.#release();
    const released = this.#events ?? NO_EVENTS;
    this.#events = undefined;
    const raw = this.#finishReason;
    const calls = this.#calls.finish({ finishReason: raw, generateId: this.#generateId });
    const hasCalls = calls.events.length > 0;
    // Older Ollama and LM Studio finish with `stop` although they sent tool calls.
    const finishReason = raw === null || raw === 'stop' ? (hasCalls ? 'tool_calls' : 'stop') : raw;
    this.#result = {
      events: released.length === 0 ? calls.events : [...released, ...calls.events],
      turn: {
        text: this.#text,
        reasoning: this.#reasoning,
        toolCalls: calls.toolCalls,
        invalidToolCalls: calls.invalidToolCalls,
        finishReason,
        rawFinishReason: raw,
        usage: this.#usage,
      },
    };
    return this.#result;
  }

  /** The text and reasoning received so far (for a truncated or cancelled response). */
  get partial(): { text: string; reasoning: string } {
    return { text: this.#text, reasoning: this.#reasoning };
  }

  #onMarkupCall(call: Parameters<ToolCallAccumulator['add']>[0], markupText: string): void {
    this.#calls.add(call);
    this.#textWithMarkup = (this.#textWithMarkup ?? this.#text) + markupText;
    this.#hiddenMarkup += markupText;
  }

  /** A lone `</think>` showed that everything so far was reasoning (Qwen3 templates). */
  #onTextWasReasoning(): void {
    // Text events already went out: say, in order, that their text was reasoning.
    if (this.#text !== '')
      (this.#events ??= []).push({ type: 'text_was_reasoning', text: this.#text });
    // Calls "written" while reasoning are thoughts, not calls: their markup is reasoning.
    // (The turn keeps the model's order; the events can only add the markup after the text
    // they move, so when text was shown after such markup, their order differs.)
    this.#reasoning += this.#textWithMarkup ?? this.#text;
    const hiddenMarkup = this.#hiddenMarkup;
    this.#text = '';
    this.#textWithMarkup = undefined;
    this.#hiddenMarkup = '';
    this.#calls.discardWholeCalls();
    // Reasoning no event reported yet (already counted in #reasoning above).
    if (hiddenMarkup !== '') (this.#events ??= []).push({ type: 'reasoning', text: hiddenMarkup });
    const held = this.#markup?.takeHeld();
    if (held !== undefined && held !== '') this.#emitReasoning(held);
  }

  #throwIfError(error: unknown): void {
    const message = readChunkError(error);
    if (message === undefined) return;
    throw new AgentError('STREAM_ERROR', `The server reported an error in the stream: ${message}`, {
      context: { error: isRecord(error) || typeof error === 'string' ? error : String(error) },
    });
  }

  /** A field rather than a method: the sinks call it straight, with no arrow in between. */
  readonly #emitText = (piece: string): void => {
    this.#text += piece;
    if (this.#textWithMarkup !== undefined) this.#textWithMarkup += piece;
    (this.#events ??= []).push({ type: 'text', text: piece });
  };

  #emitReasoning(piece: string): void {
    this.#reasoning += piece;
    (this.#events ??= []).push({ type: 'reasoning', text: piece });
  }
}

/** A backend's waiting chunk (see `WaitingChunk`) as the `waiting` event the loop yields. */
function waitingEvent(chunk: Record<string, unknown>): Waiting {
  const { phase, elapsedMs, progress, model } = chunk;
  return {
    type: 'waiting',
    phase: typeof phase === 'string' ? phase : 'waiting',
    elapsedMs: typeof elapsedMs === 'number' ? elapsedMs : 0,
    ...(typeof progress === 'number' ? { progress: Math.min(1, Math.max(0, progress)) } : {}),
    ...(typeof model === 'string' ? { model } : {}),
  };
}
