import type { WllamaChatParams, WllamaInstance } from './wllama-library.js';

/**
 * One streamed chat completion from wllama, through its `onData` callback: wllama's own async
 * iterator (3.13) queues promises ahead that nobody awaits once a reader stops, so an abort
 * then surfaces as an unhandled rejection. Stopping early (the loop's `return()`, the
 * caller's `signal`) aborts the generation in the engine, which frees its slot.
 */
export async function* wllamaStream(
  engine: WllamaInstance,
  params: WllamaChatParams,
  signal: AbortSignal | undefined,
): AsyncGenerator<unknown> {
  const controller = new AbortController();
  const abort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', abort, { once: true });
  let queue: unknown[] = [];
  let finished = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const completion = engine.createChatCompletion({
    ...params,
    onData: (chunk: unknown) => {
      queue.push(chunk);
      wake?.();
    },
    abortSignal: controller.signal,
  });
  completion.then(
    () => {
      finished = true;
      wake?.();
    },
    (error: unknown) => {
      failure = { error };
      finished = true;
      wake?.();
    },
  );
  try {
    for (;;) {
      if (queue.length > 0) {
        const ready = queue;
        queue = [];
        yield* ready;
        continue;
      }
      if (finished) {
        if (failure) throw failure.error;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    signal?.removeEventListener('abort', abort);
    if (!finished) controller.abort();
  }
}
