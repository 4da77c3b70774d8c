import { describe, expect, it } from 'vitest';
import { query } from '../../src/loop/query.js';
import type { ChatBackend } from '../../src/types/chat-request.js';

/** A backend that streams `chunks` as an `openai` client or WebLLM would (no fetch transport). */
function backendOf(chunks: unknown[]): ChatBackend {
  return {
    chat: {
      completions: {
        create: async function* () {
          await Promise.resolve();
          yield* chunks;
        },
      },
    },
  };
}

describe('server setup fixes reach the app whatever the backend', () => {
  it('adds the fix for a known setup error in a chunk (an openai client reading llama.cpp)', async () => {
    const backend = backendOf([
      { choices: [{ index: 0, delta: { content: 'a' } }] },
      { error: { message: 'Context size has been exceeded.', type: 'server_error', code: 500 } },
    ]);

    let error: unknown;
    try {
      for await (const _event of query('hi', { model: 'm', backend })) void _event;
    } catch (thrown) {
      error = thrown;
    }

    expect(error).toMatchObject({
      code: 'STREAM_ERROR',
      message: expect.stringMatching(
        /^The server reported an error in the stream: Context size has been exceeded\.\nllama\.cpp: /,
      ) as unknown,
      context: { fix: expect.stringMatching(/--ctx-size/) as unknown },
    });
  });

  it('leaves an error no setting explains as it is', async () => {
    const backend = backendOf([{ error: { message: 'out of memory' } }]);

    const error = await (async () => {
      try {
        for await (const _event of query('hi', { model: 'm', backend })) void _event;
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();

    expect(error).toMatchObject({
      code: 'STREAM_ERROR',
      message: 'The server reported an error in the stream: out of memory',
    });
    expect((error as { context?: { fix?: unknown } }).context?.fix).toBeUndefined();
  });
});
