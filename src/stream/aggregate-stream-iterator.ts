import { AgentError, isAgentError } from '../errors/agent-error.js';
import type { AssistantTurn, StreamEvent } from './assistant-turn.js';
import { CHUNK_BATCHES, isChunkBatchSource } from './chunk-batches.js';
import { type AggregateOptions, ChunkAggregator } from './chunk-aggregator.js';
import { toStreamError } from './to-stream-error.js';

type Step = IteratorResult<StreamEvent, AssistantTurn>;
type Ending = { turn: AssistantTurn } | { error: AgentError };

const NO_CHUNKS: readonly unknown[] = [];

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
 * — one await per network read — and its chunks are still aggregated one by one, lazily,
 * so an abort between two events stops at the same chunk as with any other source.
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

  /** Aggregates the next chunk (from the current batch, else from the source) until one yields events. */
  #read(): Step | Promise<Step> {
    const signal = this.#signal;
    try {
      for (;;) {
        if (signal !== undefined && signal.aborted) return this.#fail(cancelled(signal));
        if (this.#batchIndex >= this.#batch.length) break;
        const step = this.#take(this.#batch[this.#batchIndex++]);
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

  /** Aggregates one chunk: the first of its events (the rest queued), or undefined when it added none. */
  #take(chunk: unknown): Step | Promise<Step> | undefined {
    let events: readonly StreamEvent[];
    try {
      events = this.#aggregator.push(chunk);
    } catch (error) {
      return this.#fail(error);
    }
    // Nothing after [DONE] is ours; closing the source also releases the HTTP body.
    if (this.#aggregator.sawDone) return this.#closeSource().then(() => this.#end());
    if (events.length === 0) return undefined;
    this.#events = events;
    this.#index = 1;
    this.#handOn();
    return { done: false, value: events[0] as StreamEvent }; // length checked above
  }

  #afterSourceError(error: unknown): Promise<Step> {
    this.#sourceSettled = true;
    if (this.#finished) return this.#answer();
    return this.#fail(error);
  }

  /** The source ended: the turn, or STREAM_TRUNCATED after the held-back text. */
  #end(): Promise<Step> {
    if (!this.#aggregator.complete) {
      const released = this.#aggregator.flush();
      const { text, reasoning } = this.#aggregator.partial;
      return this.#endWith(released, {
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
      return this.#fail(error); // only a throwing `generateId` from the caller
    }
    return this.#endWith(result.events, { turn: result.turn });
  }

  /** Reports the held-back text, then the error; closes the source if it is still open. */
  async #fail(error: unknown): Promise<Step> {
    await this.#closeSource();
    const signal = this.#signal;
    // A source may report an abort in its own way; the signal says what happened.
    const reported =
      signal !== undefined && signal.aborted && !isAgentError(error)
        ? cancelled(signal)
        : toStreamError(error);
    return this.#endWith(this.#aggregator.flush(), { error: reported });
  }

  #endWith(events: readonly StreamEvent[], ending: Ending): Promise<Step> {
    this.#events = events;
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

function cancelled(signal: AbortSignal): AgentError {
  return new AgentError(
    'EXECUTION_CANCELLED',
    'The response stream was cancelled before it finished.',
    {
      cause: signal.reason,
    },
  );
}
