import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import type { AgentOptions } from '../../src/loop/agent-options.js';
import type { AgentEvent } from '../../src/types/events.js';
import { collect } from '../support/collect.js';
import type { SummarizePolicy } from '../../src/context/summarize/summarize-options.js';
import type { Usage } from '../../src/types/usage.js';
import {
  PARTIAL_SUMMARY,
  SUMMARY_USAGE,
  startSummaryFakeServer,
  type SummaryFakeServer,
} from '../support/summary-fake-server.js';

// The summary call is one more model call on a slow local server: while it runs the loop says
// it waits (phase 'summarizing'), and its tokens count in the run's and the client's usage.
// The conversation is written on a fast fake with a wide window, then continued on the slow
// one (time-scaled latency profile) with a 2k window, so its next request is compacted.
const WINDOW = 2048;
let fast: SummaryFakeServer;
let slow: SummaryFakeServer;
beforeAll(async () => {
  fast = await startSummaryFakeServer();
  // A prompt read at 100 tokens/s, scaled: a ~1,000-token summary prompt waits ~0.6 s.
  slow = await startSummaryFakeServer({
    latency: { promptTokensPerSecond: 100, generationTokensPerSecond: 50, timeScale: 0.06 },
  });
});
afterAll(async () => {
  await Promise.all([fast.close(), slow.close()]);
});

const lookup = tool({
  name: 'lookup',
  description: 'Looks a topic up',
  input: z.object({ topic: z.string() }),
  execute: ({ topic }) => ({ topic, facts: `Facts about ${topic}: ${'detail '.repeat(20)}` }),
});

const prompt = (turn: number): string =>
  `Turn ${turn}: tell me about subject number ${turn}, ${'with some words to fill the window. '.repeat(4)}`;

const base: AgentOptions = {
  model: 'fake-model',
  systemPrompt: 'You are a helpful assistant.',
  tools: [lookup],
  autoExecuteTools: true,
  maxTokens: 256,
};

/** A client 14 turns into a conversation that a 2k window can no longer hold whole, continued on `next`. */
async function longClient(
  next: SummaryFakeServer = slow,
  contextPolicy: 'summarize' | SummarizePolicy = 'summarize',
): Promise<Client> {
  const writer = new Client({
    ...base,
    baseURL: fast.server.url,
    contextWindow: 32_768,
    contextPolicy: 'drop-oldest',
  });
  for (let turn = 1; turn <= 14; turn += 1) await collect(writer.run(prompt(turn)));
  return Client.restore(JSON.parse(JSON.stringify(writer.snapshot())), {
    ...base,
    baseURL: next.server.url,
    contextWindow: WINDOW,
    contextPolicy,
  });
}

const total = (usage: { totalTokens: number }[]): number =>
  usage.reduce((sum, item) => sum + item.totalTokens, 0);

/** Each `step_end`'s usage and the summary call's it carries (what a token counter adds up). */
const stepUsage = (events: AgentEvent[]): Usage[] =>
  events.flatMap((event) =>
    event.type === 'step_end'
      ? [...(event.usage ? [event.usage] : []), ...(event.summaryUsage ? [event.summaryUsage] : [])]
      : [],
  );

describe('the summary call on a slow server', () => {
  it("yields `waiting` with phase 'summarizing' while the summary is written, and counts its usage", async () => {
    const client = await longClient();
    const before = client.usage.totalTokens;
    const events: AgentEvent[] = await collect(client.run(prompt(15)));
    expect(slow.summaryRequests()).toHaveLength(1);
    const compacted = events.findIndex((event) => event.type === 'context_compacted');
    expect(compacted).toBeGreaterThan(0);
    // Before the summary is sent, the wait was the summary call's.
    const waitsBefore = events.slice(0, compacted).filter((event) => event.type === 'waiting');
    expect(waitsBefore.length).toBeGreaterThan(0);
    expect(waitsBefore.every((event) => event.phase === 'summarizing')).toBe(true);
    // Usage: the summary call's is on the step_end of the request it made room for, beside
    // (not in) that request's usage, whose prompt the context meter reads.
    const first = events.find((event) => event.type === 'step_end');
    expect(first?.summaryUsage).toEqual({
      ...SUMMARY_USAGE,
      totalTokens: SUMMARY_USAGE.promptTokens + SUMMARY_USAGE.completionTokens,
    });
    expect(first?.usage?.promptTokens).toBeLessThan(WINDOW);
    const done = events.at(-1);
    expect(done?.type === 'done' && done.usage.totalTokens).toBe(total(stepUsage(events)));
    expect(client.usage.totalTokens - before).toBe(total(stepUsage(events)));
  });

  it('counts a summary call that stops answering partway: its prompt and what it wrote', async () => {
    fast.failSummaries('partway');
    try {
      const client = await longClient(fast, { type: 'summarize', timeoutMs: 400 });
      const before = client.usage.totalTokens;
      const events: AgentEvent[] = await collect(client.run(prompt(15)));
      expect(fast.summaryRequests()).toHaveLength(1);
      // No summary was sent: it fell back to drop-oldest (onError said so).
      expect(events.some((event) => event.type === 'context_compacted')).toBe(false);
      const first = events.find((event) => event.type === 'step_end');
      // No usage from the server: estimated, ~4 characters a token, the partial text included.
      expect(first?.summaryUsage?.estimated).toBe(true);
      expect(first?.summaryUsage?.completionTokens).toBe(Math.ceil(PARTIAL_SUMMARY.length / 4));
      expect(first?.summaryUsage?.promptTokens).toBeGreaterThan(200);
      const done = events.at(-1);
      expect(done?.type === 'done' && done.usage.totalTokens).toBe(total(stepUsage(events)));
      expect(client.usage.totalTokens - before).toBe(total(stepUsage(events)));
    } finally {
      fast.failSummaries(false);
    }
  });

  it("reports a summary call whose request then fails: on the failed call's step_end, and counted", async () => {
    const client = await longClient(fast);
    const before = client.usage.totalTokens;
    const summaryCalls = fast.summaryRequests().length;
    fast.failChats(true);
    const events: AgentEvent[] = [];
    try {
      await expect(
        (async () => {
          for await (const event of client.run(prompt(15), {})) events.push(event);
        })(),
      ).rejects.toMatchObject({ code: 'HTTP_ERROR' });
    } finally {
      fast.failChats(false);
    }
    expect(fast.summaryRequests()).toHaveLength(summaryCalls + 1);
    // The summary call ended and cost what it cost; the request it made room for failed. Its
    // usage is on the step_end of that failed call (no usage of its own: finishReason 'error').
    const ends = events.filter((event) => event.type === 'step_end');
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({
      finishReason: 'error',
      summaryUsage: {
        ...SUMMARY_USAGE,
        totalTokens: SUMMARY_USAGE.promptTokens + SUMMARY_USAGE.completionTokens,
      },
    });
    expect(ends[0]?.usage).toBeUndefined();
    // The conversation's usage counts it.
    expect(client.usage.totalTokens - before).toBe(total(stepUsage(events)));
    // A retry sends the stored summary: no second summary call, and its usage is not counted again.
    client.continue();
    const retried: AgentEvent[] = await collect(client.receiveMessages());
    expect(fast.summaryRequests()).toHaveLength(summaryCalls + 1);
    const retryEnd = retried.find((event) => event.type === 'step_end');
    expect(retryEnd?.summaryUsage).toBeUndefined();
    const done = retried.at(-1);
    expect(done?.type === 'done' && done.usage.totalTokens).toBe(total(stepUsage(retried)));
    expect(client.usage.totalTokens - before).toBe(total(stepUsage([...events, ...retried])));
  });

  it('counts a summary call whose request is then stopped in done.usage', async () => {
    const client = await longClient(slow);
    const summaryCalls = slow.summaryRequests().length;
    const stop = new AbortController();
    const events: AgentEvent[] = [];
    for await (const event of client.run(prompt(15), { signal: stop.signal })) {
      events.push(event);
      // The summary is written and sent; the answer's request is stopped before its first word.
      if (event.type === 'context_compacted') stop.abort();
    }
    expect(slow.summaryRequests()).toHaveLength(summaryCalls + 1);
    const done = events.at(-1);
    expect(done?.type === 'done' && done.status).toBe('cancelled');
    expect(done?.type === 'done' && done.usage.totalTokens).toBe(
      SUMMARY_USAGE.promptTokens + SUMMARY_USAGE.completionTokens,
    );
    expect(done?.type === 'done' && done.usage.totalTokens).toBe(total(stepUsage(events)));
  });
});
