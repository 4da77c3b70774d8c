import type { AgentEvent } from '../types/events.js';
import type { Phase, PhaseStep } from './agent-loop.js';

type Step = IteratorResult<AgentEvent, void>;
type Kind = 'next' | 'return' | 'throw';

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
 * The async generator behind `pumpPhases`, written by hand: an `async function*` pays an
 * await on every `yield` and a resumption of its own per event on top of the phase's, and
 * every event of a run goes through here. Behaves like the generator it replaces: `next()`
 * calls are answered in order (a call made while another waits is queued); `throw()` throws
 * into the phase that yielded the last event; `return()` closes the open phases innermost
 * first; a `return()` or `throw()` before the first `next()` ends it without starting a phase.
 */
export class PhasePump implements AsyncGenerator<AgentEvent, void> {
  readonly #stack: Phase[];
  #started = false;
  #finished = false;
  /** A request is being answered; later calls wait their turn (for-await never makes them). */
  #busy = false;
  /** Requests waiting for their turn, in call order. */
  readonly #waiting: (() => void)[] = [];

  constructor(root: Phase) {
    this.#stack = [root];
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** `await using events = client.run(…)`: closes the open phases like `return()`. */
  async [ASYNC_DISPOSE](): Promise<void> {
    await this.return();
  }

  next(): Promise<Step> {
    return this.#turn('next', undefined);
  }

  /** Stops early: closes the open phases, innermost first. */
  return(value?: void | PromiseLike<void>): Promise<Step> {
    return this.#turn('return', value);
  }

  /** The consumer's error, thrown into the phase that yielded the last event. */
  throw(error: unknown): Promise<Step> {
    return this.#turn('throw', error);
  }

  /** Answers at once, or once the requests before it are answered. */
  #turn(kind: Kind, argument: unknown): Promise<Step> {
    if (!this.#busy) {
      this.#busy = true;
      return this.#respond(kind, argument);
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve)).then(() =>
      this.#respond(kind, argument),
    );
  }

  async #respond(kind: Kind, argument: unknown): Promise<Step> {
    try {
      if (kind === 'return' || this.#finished) {
        const started = this.#started;
        this.#started = this.#finished = true;
        if (kind === 'throw') throw argument; // the generator protocol: the consumer's own value, unchanged
        // As a generator's `finally` would: innermost first, each awaited (none before the start).
        if (started)
          for (let frame = this.#stack.pop(); frame; frame = this.#stack.pop())
            await frame.return(undefined);
        return kind === 'return'
          ? { done: true, value: await (argument as void | PromiseLike<void>) }
          : FINISHED;
      }
      if (kind === 'throw' && !this.#started) {
        this.#finished = true;
        throw argument; // the generator protocol: the consumer's own value, unchanged
      }
      this.#started = true;
      // The innermost phase runs until it yields an event for the consumer: a phase it yields
      // is pushed and run; a phase that ends resumes the one that started it with its value,
      // or has its error thrown into it.
      let failure = kind === 'throw' ? { error: argument } : undefined;
      let value: unknown;
      const stack = this.#stack;
      for (let frame = stack.at(-1); frame; frame = stack.at(-1)) {
        let step: IteratorResult<PhaseStep, unknown>;
        try {
          step = await (failure ? frame.throw(failure.error) : frame.next(value));
          failure = undefined;
        } catch (error) {
          stack.pop();
          failure = { error };
          continue;
        }
        value = undefined;
        if (step.done === true) {
          stack.pop();
          value = step.value;
        } else if ('next' in step.value) stack.push(step.value);
        else return { done: false, value: step.value };
      }
      this.#finished = true;
      if (failure) throw failure.error;
      return FINISHED;
    } finally {
      // The turn passes straight to the next request waiting, so none can jump the queue.
      const waiting = this.#waiting.shift();
      if (waiting) waiting();
      else this.#busy = false;
    }
  }
}
