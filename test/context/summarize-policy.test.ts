import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import { memoryHistory } from '../../src/history/memory-history.js';
import { summariesFor } from '../../src/context/summarize/summary-fingerprint.js';
import type { AgentOptions } from '../../src/loop/agent-options.js';
import type { AgentEvent } from '../../src/types/events.js';
import type { Message } from '../../src/types/message.js';
import { collect } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import {
  startSummaryFakeServer,
  type ReceivedRequest,
  type SummaryFakeServer,
} from '../support/summary-fake-server.js';

// contextPolicy: 'summarize' through the summary fake over real HTTP: a 40-turn conversation
// with tool calls on a 2,048-token window.
const WINDOW = 2048;
const MAX_TOKENS = 256;
let fake: SummaryFakeServer;
beforeAll(async () => {
  fake = await startSummaryFakeServer();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.server.reset();
  fake.failSummaries(false);
});

const lookup = tool({
  name: 'lookup',
  description: 'Looks a topic up',
  input: z.object({ topic: z.string() }),
  execute: ({ topic }) => ({ topic, facts: `Facts about ${topic}: ${'detail '.repeat(20)}` }),
});

const prompt = (turn: number): string =>
  `Turn ${turn}: tell me about subject number ${turn}, ${'with some words to fill the window. '.repeat(4)}`;

function options(extra: Partial<AgentOptions> = {}): AgentOptions {
  return {
    model: 'fake-model',
    baseURL: fake.server.url,
    contextWindow: WINDOW,
    maxTokens: MAX_TOKENS,
    systemPrompt: 'You are a helpful assistant.',
    tools: [lookup],
    autoExecuteTools: true,
    contextPolicy: 'summarize',
    ...extra,
  };
}

/** The request as the server received it, as messages (the checks below read them). */
const asMessages = (request: ReceivedRequest): Message[] =>
  request.messages as unknown as Message[];

/**
 * A request's tokens at 3.5 characters a token (English runs ~4 with Llama and Qwen
 * tokenizers), plus 4 a message for the template: to check it is under the window.
 */
const estimate = (request: ReceivedRequest): number => {
  let chars = JSON.stringify(request.tools ?? []).length;
  for (const message of request.messages) {
    chars += typeof message.content === 'string' ? message.content.length : 0;
    chars += JSON.stringify(message.tool_calls ?? []).length;
  }
  return Math.ceil(chars / 3.5) + 4 * request.messages.length;
};

const textOf = (message: Message | undefined): string =>
  typeof message?.content === 'string' ? message.content : '';

async function converse(client: Client, from: number, to: number): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for (let turn = from; turn <= to; turn += 1)
    events.push(...(await collect(client.run(prompt(turn)))));
  return events;
}

describe("contextPolicy: 'summarize'", () => {
  it('40 turns on a 2k window: every request is summary + recent turns, under the window, calls paired', async () => {
    const errors: unknown[] = [];
    const client = new Client(options({ onError: (error) => errors.push(error) }));
    const events = await converse(client, 1, 40);
    expect(errors).toEqual([]);
    expect(events.filter((event) => event.type === 'context_trimmed')).toEqual([]);
    const compacted = events.filter((event) => event.type === 'context_compacted');
    expect(compacted.length).toBeGreaterThan(0);
    const history = client.history;
    assertHistoryConsistent(history);
    expect(history.filter((message) => message.role === 'user')).toHaveLength(40); // nothing lost
    const summaries = client.summaries;
    expect(summaries.length).toBeGreaterThan(1);
    // Incremental: each summary folds the previous one into the turns after it.
    expect(summaries.at(-1)?.text).toMatch(/^Summary of turns 1-\d+\.$/);
    for (const request of fake.chatRequests()) {
      const messages = asMessages(request);
      expect(estimate(request)).toBeLessThan(WINDOW - MAX_TOKENS);
      assertHistoryConsistent(messages);
      const system = textOf(messages[0]);
      const summarised = /its first (\d+) messages/.exec(system);
      const rest = messages.slice(1);
      // The rest is the stored conversation's tail, word for word, from a user message on.
      const covers = summarised ? Number(summarised[1]) : 0;
      expect(rest[0]?.role).toBe('user');
      const tail = history.slice(covers, covers + rest.length).map((message) => {
        const {
          reasoning: _r,
          durationMs: _d,
          contextUse: _c,
          ...sent
        } = message as Message & { reasoning?: string; durationMs?: number; contextUse?: unknown };
        return sent;
      });
      expect(rest).toEqual(tail);
    }
    const last = asMessages(fake.chatRequests().at(-1) as ReceivedRequest);
    expect(textOf(last[0])).toMatch(/Summary of turns 1-\d+\./);
    expect(last.at(-1)).toMatchObject({ role: 'user', content: prompt(40) });
  });

  it('adds at most one summary call per threshold crossing', async () => {
    const client = new Client(options());
    const events = await converse(client, 1, 40);
    const compactions = client.summaries.length;
    expect(fake.summaryRequests()).toHaveLength(compactions);
    // A crossing is a request whose summary is newer than the previous request's.
    const covers = events.flatMap((event) =>
      event.type === 'context_compacted' ? [event.summarizedMessages] : [],
    );
    expect(new Set(covers).size).toBe(compactions);
    for (const request of fake.summaryRequests()) expect(estimate(request)).toBeLessThan(WINDOW);
  });

  it('a failing summary call falls back to drop-oldest, says so, and tries again on the next prompt', async () => {
    const errors: { code?: string; message?: string }[] = [];
    // No retries of the 500s: the transport's own retries are another test's subject.
    const client = new Client(options({ maxRetries: 0, onError: (error) => errors.push(error) }));
    fake.failSummaries(true);
    const events = await converse(client, 1, 24);
    expect(events.filter((event) => event.type === 'context_compacted')).toEqual([]);
    expect(events.filter((event) => event.type === 'context_trimmed').length).toBeGreaterThan(0);
    expect(
      events
        .filter((event) => event.type === 'done')
        .every((event) => event.type === 'done' && event.status === 'completed'),
    ).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatchObject({ code: 'HTTP_ERROR' });
    expect(errors[0]?.message).toMatch(
      /Summarising \d+ earlier messages failed.*summary model crashed.*drop-oldest/,
    );
    // At most one try per prompt while it fails.
    const prompts = events.filter((event) => event.type === 'done').length;
    expect(fake.summaryRequests().length).toBeLessThanOrEqual(prompts);
    for (const request of fake.chatRequests()) {
      expect(estimate(request)).toBeLessThan(WINDOW);
      assertHistoryConsistent(asMessages(request));
    }
    fake.failSummaries(false);
    const after = await converse(client, 25, 26);
    expect(after.filter((event) => event.type === 'context_compacted').length).toBeGreaterThan(0);
    expect(client.summaries).toHaveLength(1);
  });

  it('a reload mid-conversation keeps the summary: the next request sends it without a new summary call', async () => {
    const history = memoryHistory();
    const first = new Client(options({ history, conversationId: 'long' }));
    await converse(first, 1, 20);
    const summaries = first.summaries;
    expect(summaries.length).toBeGreaterThan(0);
    await first.close();
    const calls = fake.summaryRequests().length;
    const requestsBefore = fake.chatRequests().length;
    const second = new Client(options({ history, conversationId: 'long' }));
    await second.ready;
    expect(second.summaries).toEqual(summaries);
    await converse(second, 21, 21);
    const next = asMessages(fake.chatRequests()[requestsBefore] as ReceivedRequest);
    expect(textOf(next[0])).toContain(summaries.at(-1)?.text);
    expect(fake.summaryRequests().length - calls).toBeLessThanOrEqual(1);
    await converse(second, 22, 40);
    expect(second.history.filter((message) => message.role === 'user')).toHaveLength(40);
    // snapshot() / restore() carry them too.
    const restored = Client.restore(JSON.parse(JSON.stringify(second.snapshot())), options());
    expect(restored.summaries).toEqual(second.summaries);
  });

  it('export / import carries the summaries, and a summary belongs to the branch it summarises', async () => {
    const history = memoryHistory();
    const client = new Client(options({ history, conversationId: 'exported' }));
    await converse(client, 1, 16);
    await client.close();
    const file = JSON.parse(await history.exportConversation('exported')) as {
      summaries?: unknown[];
    };
    expect(file.summaries).toEqual(client.summaries);
    const other = memoryHistory();
    const id = await other.importConversation(JSON.stringify(file));
    expect((await other.load(id))?.summaries).toEqual(client.summaries);
    const reloaded = new Client(options({ history: other, conversationId: id }));
    await reloaded.ready;
    expect(reloaded.summaries).toEqual(client.summaries);
    // Editing the second prompt makes a branch the summaries do not cover…
    const second = reloaded.history.findIndex(
      (message, index) => index > 0 && message.role === 'user',
    );
    await reloaded.rewind(second);
    await collect(reloaded.run('Turn 2: something else entirely'));
    expect(summariesFor(reloaded.history, reloaded.summaries)).toEqual([]);
    expect(reloaded.summaries).toEqual(client.summaries); // every branch's
    expect((await other.load(id))?.summaries).toEqual(client.summaries); // kept for the other branch
    // …and they apply again when the first branch is shown again.
    await reloaded.switchBranch(second, 0);
    expect(summariesFor(reloaded.history, reloaded.summaries)).toEqual(client.summaries);
  });
});
