import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import type { AgentOptions } from '../../src/loop/agent-options.js';
import { collect } from '../support/collect.js';
import {
  startSummaryFakeServer,
  type ReceivedRequest,
  type SummaryFakeServer,
} from '../support/summary-fake-server.js';

// Issue 30's closing note: what the model received at turn 40 of a conversation on a 2k
// window, with contextPolicy 'drop-oldest' (before) and 'summarize' (after), on the summary
// fake with a slow server's latency profile (time-scaled). `PRINT_TURN_40=1` prints both:
//   PRINT_TURN_40=1 npx vitest run --project node test/context/turn-40-before-after.test.ts
const WINDOW = 2048;
let fake: SummaryFakeServer;
beforeAll(async () => {
  fake = await startSummaryFakeServer({
    latency: {
      loadMs: 5_000,
      promptTokensPerSecond: 400,
      generationTokensPerSecond: 40,
      timeScale: 0.002,
    },
  });
});
afterAll(async () => {
  await fake.close();
});

const lookup = tool({
  name: 'lookup',
  description: 'Looks a topic up',
  input: z.object({ topic: z.string() }),
  execute: ({ topic }) => ({ topic, facts: `Facts about ${topic}: ${'detail '.repeat(20)}` }),
});

const prompt = (turn: number): string =>
  `Turn ${turn}: tell me about subject number ${turn}, ${'with some words to fill the window. '.repeat(4)}`;

/** ~3.5 characters a token plus 4 a message (the other summarize tests' estimate). */
const estimate = (request: ReceivedRequest): number => {
  let chars = JSON.stringify(request.tools ?? []).length;
  for (const message of request.messages) {
    chars += typeof message.content === 'string' ? message.content.length : 0;
    chars += JSON.stringify(message.tool_calls ?? []).length;
  }
  return Math.ceil(chars / 3.5) + 4 * request.messages.length;
};

/** What the model received in the last request of turn 40 (the one that answered it). */
async function turn40(
  contextPolicy: NonNullable<AgentOptions['contextPolicy']>,
): Promise<ReceivedRequest> {
  fake.server.reset();
  const client = new Client({
    model: 'fake-model',
    baseURL: fake.server.url,
    contextWindow: WINDOW,
    maxTokens: 256,
    systemPrompt: 'You are a helpful assistant.',
    tools: [lookup],
    autoExecuteTools: true,
    contextPolicy,
  });
  for (let turn = 1; turn <= 40; turn += 1) await collect(client.run(prompt(turn)));
  expect(client.history.filter((message) => message.role === 'user')).toHaveLength(40);
  return fake.chatRequests().at(-1) as ReceivedRequest;
}

function describeRequest(name: string, request: ReceivedRequest): string {
  const roles = request.messages.map((message) => message.role[0]).join('');
  const turns = request.messages.flatMap((message) =>
    message.role === 'user' ? [/Turn (\d+)/.exec(String(message.content))?.[1]] : [],
  );
  const system = String(request.messages[0]?.content ?? '');
  return [
    `${name}: ${request.messages.length} messages, ~${estimate(request)} tokens (window ${WINDOW})`,
    `  roles: ${roles} (s system, u user, a assistant, t tool)`,
    `  user turns sent: ${turns.join(', ')}`,
    `  system message head: ${JSON.stringify(system.slice(0, 160))}`,
  ].join('\n');
}

describe('turn 40 on a 2k window, before and after', () => {
  it("'drop-oldest' forgets the start; 'summarize' sends a summary of turns 1.. in its place", async () => {
    const before = await turn40('drop-oldest');
    const after = await turn40('summarize');
    const firstTurn = (request: ReceivedRequest) =>
      Number(/Turn (\d+)/.exec(String(request.messages[1]?.content))?.[1]);
    // Before: the system prompt alone, then the newest turns; the start is gone.
    expect(String(before.messages[0]?.content)).toBe('You are a helpful assistant.');
    expect(firstTurn(before)).toBeGreaterThan(1);
    // After: the summary (of turns 1 to just before the kept ones) in the system message.
    const summary = /Summary of turns (\d+)-(\d+)\./.exec(String(after.messages[0]?.content));
    expect(summary?.[1]).toBe('1');
    expect(Number(summary?.[2])).toBe(firstTurn(after) - 1);
    for (const request of [before, after]) expect(estimate(request)).toBeLessThan(WINDOW);
    if (process.env.PRINT_TURN_40)
      console.log(
        `${describeRequest("before, contextPolicy 'drop-oldest'", before)}\n\n${describeRequest("after, contextPolicy 'summarize'", after)}`,
      );
  }, 60_000);
});
