import type {
  LanguageModelAPI,
  LanguageModelAvailability,
  LanguageModelCreateOptions,
  LanguageModelMessage,
  LanguageModelSession,
} from '../../src/backend/engines/chrome-ai-types.js';

/** One scripted answer: text pieces streamed in order, or an error the stream fails with. */
export type FakeReply = readonly string[] | Error;

/**
 * A fake of Chrome's Prompt API (`LanguageModel`) following the spec's shapes: availability
 * that turns `available` once a `create()` with a monitor has "downloaded" (firing
 * `downloadprogress` events with `loaded` 0..1), sessions with `contextWindow` and
 * `promptStreaming()` (a ReadableStream of text deltas that honours `signal`). Replays one
 * reply per prompt, records every call, and fails loudly on an unscripted prompt.
 */
export function fakeLanguageModel(script: {
  availability?: LanguageModelAvailability;
  download?: readonly number[];
  contextWindow?: number;
  replies: FakeReply[];
}) {
  let availability = script.availability ?? 'available';
  const created: LanguageModelCreateOptions[] = [];
  const prompts: { input: string | LanguageModelMessage[]; options: Record<string, unknown> }[] =
    [];
  let destroyed = 0;
  const replies = [...script.replies];
  const session = (): LanguageModelSession => ({
    contextWindow: script.contextWindow ?? 6144,
    promptStreaming(input, options = {}) {
      prompts.push({ input, options });
      const reply = replies.shift();
      if (reply === undefined) throw new Error(`Unscripted prompt: ${JSON.stringify(input)}`);
      if (reply instanceof Error) throw reply;
      const pieces = [...reply];
      const signal = options.signal;
      return new ReadableStream<string>({
        async pull(controller) {
          await Promise.resolve();
          if (signal?.aborted) {
            controller.error(new DOMException('The operation was aborted.', 'AbortError'));
            return;
          }
          const piece = pieces.shift();
          if (piece === undefined) controller.close();
          else controller.enqueue(piece);
        },
      });
    },
    destroy() {
      destroyed++;
    },
  });
  const api: LanguageModelAPI = {
    availability: () => Promise.resolve(availability),
    async create(options = {}) {
      created.push(options);
      if (availability === 'unavailable')
        throw new DOMException('Unavailable', 'NotSupportedError');
      if (availability !== 'available') {
        const monitor = new EventTarget();
        options.monitor?.(monitor);
        for (const loaded of script.download ?? [0, 1]) {
          await Promise.resolve();
          monitor.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded }));
        }
        availability = 'available';
      }
      return session();
    },
  };
  return {
    api,
    created,
    prompts,
    get destroyed() {
      return destroyed;
    },
  };
}
