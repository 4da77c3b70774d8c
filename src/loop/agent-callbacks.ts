import { errorMessage } from '../errors/agent-error.js';
import type { Usage } from '../types/usage.js';

type MaybePromise<T> = T | Promise<T>;

/** Where an execution is, as callbacks see it. A fresh copy per call. */
export interface AgentRunState {
  /** The current attempt, from 1. */
  readonly attempt: number;
  /** The current iteration (model call) within the attempt, from 1. */
  readonly iteration: number;
  /** Tokens so far, over every iteration and attempt. */
  readonly tokens: Usage;
}

/**
 * Progress callbacks of `executeAgent`, awaited in order. One that throws is recorded in
 * `metadata.callbackErrors` and never stops the execution.
 */
export interface AgentCallbacks {
  /** Before the first model call of each attempt. */
  onAttemptStart?: (state: AgentRunState) => MaybePromise<void>;
  /** Before each tool runs (helpers, the output tool, `submit`), with its validated input. */
  onToolCall?: (
    state: AgentRunState,
    toolName: string,
    input: Record<string, unknown>,
  ) => MaybePromise<void>;
  /** After each tool ran, with the text the model will read (`Error: …` for a failure). */
  onToolResult?: (state: AgentRunState, toolName: string, resultText: string) => MaybePromise<void>;
  /** When an output fails the schema or a validator, with the message the model will read. */
  onValidationFailure?: (state: AgentRunState, message: string) => MaybePromise<void>;
}

/** A callback that threw. */
export interface CallbackError {
  callback: keyof AgentCallbacks;
  message: string;
}

/** Calls the callbacks that are set, collecting what they throw. */
export class CallbackRunner {
  readonly errors: CallbackError[] = [];
  readonly #callbacks: AgentCallbacks;

  constructor(callbacks: AgentCallbacks = {}) {
    this.#callbacks = callbacks;
  }

  /** Runs `invoke` with the callback `name`, if set; never throws. */
  async run<Name extends keyof AgentCallbacks>(
    name: Name,
    invoke: (callback: NonNullable<AgentCallbacks[Name]>) => unknown,
  ): Promise<void> {
    const callback = this.#callbacks[name];
    if (!callback) return;
    try {
      await invoke(callback);
    } catch (error) {
      this.errors.push({ callback: name, message: errorMessage(error) });
    }
  }
}
