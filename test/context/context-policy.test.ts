import { describe, expect, it } from 'vitest';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { Client } from '../../src/loop/client.js';
import { collect } from '../support/collect.js';

// The policies through the Client: what is sent, what is yielded, what is stored.
const long = (index: number): string =>
  `Message ${index}: ${'some words to fill the window. '.repeat(20)}`;

async function clientWithHistory(options: Partial<ConstructorParameters<typeof Client>[0]> = {}) {
  const backend = scriptedBackend([], { respond: () => ({ text: 'ok' }) });
  const client = new Client({
    model: 'm',
    backend,
    contextWindow: 2048,
    maxTokens: 256,
    systemPrompt: 'Be brief.',
    ...options,
  });
  for (let index = 0; index < 12; index += 1) await collect(client.run(long(index)));
  return { client, backend };
}

describe('usage a server reports loosely', () => {
  it('a tiny prompt_tokens is not taken for a silent cut: later requests are not shrunk', async () => {
    const backend = scriptedBackend([], {
      respond: () => ({ text: 'ok', usage: { promptTokens: 10, completionTokens: 1 } }),
    });
    const errors: unknown[] = [];
    const client = new Client({
      model: 'm',
      backend,
      contextWindow: 32_768,
      onError: (error) => errors.push(error),
    });
    for (let index = 0; index < 6; index += 1) {
      const events = await collect(client.run(long(index)));
      expect(events.map((event) => event.type)).toEqual(['text', 'step_end', 'done']);
    }
    expect(errors).toEqual([]);
    expect(backend.requests.at(-1)?.messages).toHaveLength(11);
  });
});

describe('contextPolicy', () => {
  it("'drop-oldest' (default) yields context_trimmed before the call and sends the newest turns", async () => {
    const { client, backend } = await clientWithHistory();
    const before = structuredClone(client.history);
    const events = await collect(client.run(long(12)));
    expect(events.map((event) => event.type)).toEqual([
      'context_trimmed',
      'text',
      'step_end',
      'done',
    ]);
    const trimmed = events[0];
    const sent = backend.requests.at(-1)?.messages ?? [];
    expect(trimmed).toMatchObject({ type: 'context_trimmed', contextWindow: 2048 });
    expect(trimmed?.type === 'context_trimmed' && trimmed.droppedMessages).toBe(
      before.length + 1 - (sent.length - 1),
    );
    expect(trimmed?.type === 'context_trimmed' && trimmed.promptTokens).toBeLessThanOrEqual(
      2048 - 256,
    );
    expect(sent[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(sent.at(-1)).toEqual({ role: 'user', content: long(12) });
    expect(sent[1]?.role).toBe('user');
    expect(client.history.slice(0, before.length)).toEqual(before);
    expect(client.history).toHaveLength(before.length + 2);
  });

  it("'error' fails with CONTEXT_OVERFLOW and the fix once something would be left out", async () => {
    const backend = scriptedBackend([], { respond: () => ({ text: 'ok' }) });
    const client = new Client({
      model: 'm',
      backend,
      contextWindow: 2048,
      maxTokens: 256,
      contextPolicy: 'error',
    });
    let failure: unknown;
    let runs = 0;
    for (; runs < 20 && failure === undefined; runs += 1) {
      await collect(client.run(long(runs))).catch((error: unknown) => (failure = error));
    }
    expect(failure).toMatchObject({ code: 'CONTEXT_OVERFLOW', context: { contextWindow: 2048 } });
    expect((failure as Error).message).toMatch(/contextPolicy is "error"/);
    expect(runs).toBeGreaterThan(3);
    expect(backend.requests).toHaveLength(runs - 1);
    expect(backend.requests.at(-1)?.messages).toHaveLength(2 * (runs - 1) - 1);
  });

  it('a function chooses what is sent, with the tokens and window it was given', async () => {
    const seen: { count: number; promptTokens: number; contextWindow: number }[] = [];
    const { client, backend } = await clientWithHistory({
      contextPolicy: ({ messages, promptTokens, contextWindow }) => {
        seen.push({ count: messages.length, promptTokens, contextWindow });
        return messages.slice(-1);
      },
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)?.contextWindow).toBe(2048);
    expect(seen.at(-1)?.promptTokens).toBeGreaterThan(2048 - 256);
    expect(backend.requests.at(-1)?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: long(11) },
    ]);
    expect(client.history).toHaveLength(24);
  });

  it('fails with CONTEXT_OVERFLOW when even the current prompt does not fit', async () => {
    const backend = scriptedBackend([], { respond: () => ({ text: 'ok' }) });
    const client = new Client({ model: 'm', backend, contextWindow: 512, maxTokens: 128 });
    await expect(collect(client.run('x'.repeat(8000)))).rejects.toMatchObject({
      code: 'CONTEXT_OVERFLOW',
      context: {
        contextWindow: 512,
        fix: expect.stringMatching(/larger context window/) as unknown,
      },
    });
    expect(backend.requests).toHaveLength(0);
    expect(client.history).toEqual([{ role: 'user', content: 'x'.repeat(8000) }]);
  });

  it('sends everything, without an event, when a backend is given without a window', async () => {
    const backend = scriptedBackend([], { respond: () => ({ text: 'ok' }) });
    const client = new Client({ model: 'm', backend, maxTokens: 256 });
    for (let index = 0; index < 12; index += 1) await collect(client.run(long(index)));
    const events = await collect(client.run(long(12)));
    expect(events.some((event) => event.type === 'context_trimmed')).toBe(false);
    expect(backend.requests.at(-1)?.messages).toHaveLength(25);
  });
});
