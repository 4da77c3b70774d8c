import { AgentError, isAgentError } from '../errors/agent-error.js';
import type { ReasoningBlock, TextBlock } from '../types/events.js';
import type { AssistantTurn, StreamEvent } from './assistant-turn.js';
import { CHUNK_BATCHES, isChunkBatchSource } from './chunk-batches.js';
import { type AggregateOptions, ChunkAggregator, STREAM_ENDED } from './chunk-aggregator.js';
import { toStreamError } from './to-stream-error.js';

type Step = IteratorResult<StreamEvent, AssistantTurn>;
type Ending = { turn: AssistantTurn } | { error: AgentError };

const NO_CHUNKS: readonly unknown[] = [];
const NO_EVENTS: readonly StreamEvent[] = [];

/**
 * `Symbol.asyncDispose` where the engine has it (Node 20, recent browsers); elsewhere a
 * registered stand-in, so the class never gets a method keyed `"undefined"`.
 */
const ASYNC_DISPOSE: typeof Symbol.asyncDispose =
  (Symbol as { asyncDispose?: typeof Symbol.asyncDispose }).asyncDispose ??
  (Symbol.for('Symbol.asyncDispose') as typeof Symbol.asyncDispose); // only a key, never compared

/** What a finished async generator answers to any further `next()`. */
const FINISHED = Object.freeze({ done: true, value: undefined }) as unknown as Step; // the generator protocol's own shape

/**
 * The async generator behind `aggregateStream`, written by hand: an `async function*`
 * pays an extra await on every `yield`, which on a 20,000-delta stream costs more than
 * the aggregation itself. Behaves like the generator it replaces: `next()` calls are
 * answered in order (a call made while another waits is queued), `return()` closes the
 * source (so a transport releases the HTTP body), `throw()` closes it and rethrows.
 *
 * A source offering {@link CHUNK_BATCHES} (our fetch transport) is read a batch at a time
 * — one await per network read (a read of megabytes comes as batches of ~32 KB) — and the
 * whole batch is aggregated at once: the text deltas of one batch become one `text` event,
 * reasoning alike (see {@link mergeDeltas}). A UI renders per event, and the later deltas
 * of a read are already there, so handing them out one by one would only delay the last of
 * them; a server that flushes one token per read still streams them one by one. An abort
 * stops before the next read. Other sources (an `openai` client, WebLLM, the scripted
 * backend) yield one chunk per `next()`, and one event per delta.
 */
export class AggregateStreamIterator implements AsyncGenerator<StreamEvent, AssistantTurn> {
  readonly #aggregator: ChunkAggregator;
  readonly #chunks: AsyncIterable<unknown>;
  readonly #signal: AbortSignal | undefined;
  /** The source's chunk iterator, or its batch iterator when `#batched`. */
  #source: AsyncIterator<unknown> | undefined;
  #batched = false;
  /** The chunks of the last read (one, unless `#batched`); from `#batchIndex` on not aggregated yet. */
  #batch: readonly unknown[] = NO_CHUNKS;
  #batchIndex = 0;
  /** The source ended, threw, or was closed: never call its `return()` (again). */
  #sourceSettled = false;
  /** Events of the last chunk not handed out yet. */
  #events: readonly StreamEvent[] = [];
  #index = 0;
  /** How the stream ends once `#events` are out. */
  #ending: Ending | undefined;
  #finished = false;
  /** A request is being answered; later `next()` calls wait their turn (for-await never makes them). */
  #busy = false;
  /** Requests waiting for their turn, in call order. */
  readonly #waiting: (() => void)[] = [];
  readonly #onRead = (step: IteratorResult<unknown>): Step | Promise<Step> => {
    if (this.#finished) return this.#answer();
    if (step.done === true) {
      this.#sourceSettled = true;
      return this.#end();
    }
    // A batch source yields arrays of chunks (its contract, see CHUNK_BATCHES).
    this.#batch = this.#batched ? (step.value as readonly unknown[]) : [step.value];
    this.#batchIndex = 0;
    return this.#read();
  };
  readonly #onSourceError = (error: unknown): Promise<Step> => this.#afterSourceError(error);

  constructor(chunks: AsyncIterable<unknown>, options: AggregateOptions = {}) {
    this.#aggregator = new ChunkAggregator(options);
    this.#chunks = chunks;
    this.#signal = options.signal;
  }

  [Symbol.asyncIterator](): AsyncGenerator<StreamEvent, AssistantTurn> {
    return this;
  }

  /** `await using stream = aggregateStream(…)`: closes the source like `return()`. */
  async [ASYNC_DISPOSE](): Promise<void> {
    await this.return();
  }

  /** The next text / reasoning delta, then the calls, then `{ done: true, value: turn }`. */
  next(): Promise<Step> {
    if (this.#busy) {
      return new Promise<void>((resolve) => this.#waiting.push(resolve)).then(() => this.#answer());
    }
    // Hot path: per event. Nobody waits while the iterator is free, so a queued event is
    // answered here, as #answer would (no #answer / #handOn calls).
    const event = this.#events[this.#index];
    if (event !== undefined) {
      this.#index++;
      return Promise.resolve({ done: false, value: event });
    }
    this.#busy = true;
    return this.#answer();
  }

  /** Stops early: closes the source (a transport cancels the HTTP body). */
  async return(value?: AssistantTurn | PromiseLike<AssistantTurn>): Promise<Step> {
    this.#stop();
    await this.#closeSource();
    return value === undefined ? FINISHED : { done: true, value: await value };
  }

  /** Stops with an error from the consumer: closes the source and rethrows it. */
  async throw(error: unknown): Promise<Step> {
    this.#stop();
    await this.#closeSource();
    throw error; // the generator protocol: the consumer's own value, unchanged
  }

  /** Answers the request that owns the iterator (`#busy`), then hands it on. */
  #answer(): Promise<Step> {
    const event = this.#events[this.#index];
    if (event !== undefined) {
      this.#index++;
      this.#handOn();
      return Promise.resolve({ done: false, value: event });
    }
    const ending = this.#ending;
    if (ending !== undefined) {
      this.#ending = undefined;
      this.#finished = true;
      this.#handOn();
      return 'turn' in ending
        ? Promise.resolve({ done: true, value: ending.turn })
        : Promise.reject(ending.error);
    }
    if (this.#finished) {
      this.#handOn();
      return Promise.resolve(FINISHED);
    }
    return Promise.resolve(this.#read());
  }

  /** The request is answered: the next queued one (if any) now owns the iterator. */
  #handOn(): void {
    const waiting = this.#waiting.shift();
    if (waiting === undefined) this.#busy = false;
    else waiting();
  }

  /** Aggregates the rest of the current batch, else reads the next one, until that yields events. */
  #read(): Step | Promise<Step> {
    const signal = this.#signal;
    try {
      if (signal !== undefined && signal.aborted) return this.#fail(cancelled(signal));
      if (this.#batchIndex < this.#batch.length) {
        const step = this.#takeBatch();
        if (step !== undefined) return step;
      }
      if (this.#source === undefined) {
        const chunks = this.#chunks;
        if (isChunkBatchSource(chunks)) {
          this.#batched = true;
          this.#source = chunks[CHUNK_BATCHES]();
        } else this.#source = chunks[Symbol.asyncIterator]();
      }
      return this.#source.next().then(this.#onRead, this.#onSourceError);
    } catch (error) {
      // A source whose iterator() or next() throws synchronously.
      this.#sourceSettled = true;
      return this.#fail(error);
    }
  }

  /**
   * Aggregates the chunks of the current batch (one read, or one chunk of a plain source):
   * the first of their events (the rest queued, deltas merged), or undefined when they added none.
   */
  #takeBatch(): Step | Promise<Step> | undefined {
    const batch = this.#batch;
    const signal = this.#signal;
    let events: StreamEvent[] | undefined;
    let first: readonly StreamEvent[] | undefined;
    while (this.#batchIndex < batch.length) {
      // Only a callback of ours (onToolCallDelta) can abort while a batch is aggregated.
      if (signal !== undefined && signal.aborted)
        return this.#fail(cancelled(signal), gathered(first, events));
      let added: readonly StreamEvent[];
      try {
        added = this.#aggregator.push(batch[this.#batchIndex++]);
      } catch (error) {
        return this.#fail(error, gathered(first, events));
      }
      if (added.length > 0) {
        if (first === undefined) first = added;
        else (events ??= [...first]).push(...added);
      } else if (added === STREAM_ENDED) {
        // [DONE] (told by identity: no `sawDone` call per chunk). Nothing after it is ours;
        // closing the source also releases the HTTP body.
        const before = gathered(first, events);
        return this.#closeSource().then(() => this.#end(before));
      }
    }
    const all = gathered(first, events);
    if (all.length === 0) return undefined;
    this.#events = all;
    this.#index = 1;
    this.#handOn();
    return { done: false, value: all[0] as StreamEvent }; // length checked above
  }

  #afterSourceError(error: unknown): Promise<Step> {
    this.#sourceSettled = true;
    if (this.#finished) return this.#answer();
    return this.#fail(error);
  }

  /** The source ended: `before` (the last read's events), then the turn, or STREAM_TRUNCATED after the held-back text. */
  #end(before: readonly StreamEvent[] = NO_EVENTS): Promise<Step> {
    if (!this.#aggregator.complete) {
      const released = this.#aggregator.flush();
      const { text, reasoning } = this.#aggregator.partial;
      return this.#endWith(before, released, {
        error: new AgentError(
          'STREAM_TRUNCATED',
          `The response stream ended without [DONE] or a finish reason after ${text.length} characters of text and ${reasoning.length} of reasoning: the connection was probably cut.`,
          { context: { textLength: text.length, reasoningLength: reasoning.length } },
        ),
      });
    }
    let result: ReturnType<ChunkAggregator['end']>;
    try {
      result = this.#aggregator.end();
    } catch (error) {
      return this.#fail(error, before); // only a throwing `generateId` from the caller
    }
    return this.#endWith(before, result.events, { turn: result.turn });
  }

  /** Reports `before` and the held-back text, then the error; closes the source if it is still open. */
  async #fail(error: unknown, before: readonly StreamEvent[] = NO_EVENTS): Promise<Step> {
    await this.#closeSource();
    const signal = this.#signal;
    // A source may report an abort in its own way; the signal says what happened.
    const reported =
      signal !== undefined && signal.aborted && !isAgentError(error)
        ? cancelled(signal)
        : toStreamError(error);
    return this.#endWith(before, this.#aggregator.flush(), { error: reported });
  }

  #endWith(
    before: readonly StreamEvent[],
    events: readonly StreamEvent[],
    ending: Ending,
  ): Promise<Step> {
    this.#events = before.length === 0 ? events : mergeDeltas([...before, ...events]);
    this.#index = 0;
    this.#ending = ending;
    return this.#answer();
  }

  #stop(): void {
    this.#finished = true;
    this.#events = [];
    this.#batch = NO_CHUNKS;
    this.#ending = undefined;
  }

  async #closeSource(): Promise<void> {
    this.#batch = NO_CHUNKS;
    const source = this.#source;
    if (source === undefined || this.#sourceSettled) return;
    this.#sourceSettled = true;
    try {
      await source.return?.();
    } catch {
      // Closing is best effort: the stream's outcome is already decided.
    }
  }
}

/** The events a batch added: the first chunk's array as it is, or all of them with their deltas merged. */
function gathered(
  first: readonly StreamEvent[] | undefined,
  events: StreamEvent[] | undefined,
): readonly StreamEvent[] {
  if (events !== undefined) return mergeDeltas(events);
  return first ?? NO_EVENTS;
}

/**
 * Joins each run of adjacent `text` events into one, and each run of `reasoning` events:
 * the same text in the same order, in fewer events. Everything else (`text_was_reasoning`,
 * calls) stays where it is and ends a run.
 */
export function mergeDeltas(events: readonly StreamEvent[]): StreamEvent[] {
  const merged: StreamEvent[] = [];
  // The run being joined: a copy, so the events given stay as they are.
  let run: TextBlock | ReasoningBlock | undefined;
  for (const event of events) {
    if (event.type !== 'text' && event.type !== 'reasoning') {
      run = undefined;
      merged.push(event);
    } else if (run !== undefined && run.type === event.type) run.text += event.text;
    else merged.push((run = { ...event }));
  }
  return merged;
}

function cancelled(signal: AbortSignal): AgentError {
  return new AgentError(
    'EXECUTION_CANCELLED',
    'The response stream was cancelled before it finished.',
    {
      cause: signal.reason,
    },
  );
}
