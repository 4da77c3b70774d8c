import type { AgentOptions } from './agent-options.js';

/**
 * Callbacks for what streams inside a model response, beside the events: the same as
 * {@link AgentOptions.onToolInputDelta} and {@link AgentOptions.onTextWasReasoning}, for
 * code that did not create the Client (a UI given a ready one). See `Client.observe`.
 */
export type StreamListeners = Pick<AgentOptions, 'onToolInputDelta' | 'onTextWasReasoning'>;

/**
 * `options` whose stream callbacks also call each listener, in the order added. Every
 * callback runs even when one throws; the first error is rethrown after them (the loop
 * reports it to `onError`).
 */
export function withStreamListeners(
  options: AgentOptions,
  listeners: ReadonlySet<StreamListeners>,
): AgentOptions {
  if (listeners.size === 0) return options;
  return {
    ...options,
    onToolInputDelta: (delta) => {
      callAll(options.onToolInputDelta, listeners, (listener) => listener.onToolInputDelta, delta);
    },
    onTextWasReasoning: (text) => {
      callAll(
        options.onTextWasReasoning,
        listeners,
        (listener) => listener.onTextWasReasoning,
        text,
      );
    },
  };
}

function callAll<Value>(
  own: ((value: Value) => void) | undefined,
  listeners: ReadonlySet<StreamListeners>,
  pick: (listener: StreamListeners) => ((value: Value) => void) | undefined,
  value: Value,
): void {
  let failure: { error: unknown } | undefined;
  for (const callback of [own, ...[...listeners].map(pick)]) {
    try {
      callback?.(value);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
