import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Client,
  DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE,
  DEFAULT_MAX_TOOL_RESULT_CHARACTERS,
  memoryHistory,
  scriptedBackend,
  tool,
} from '../../src/index.js';
import { collect } from '../support/collect.js';

// Measured fact 6 of issue 27: 200 calls in one answer all auto-executed; a 5 MB tool result was
// stored whole (and sent whole with every later request).

function counting() {
  const ran: number[] = [];
  const step = tool({
    name: 'step',
    description: 'One step',
    input: z.object({ n: z.number() }),
    execute: ({ n }) => (ran.push(n), `step ${n}`),
  });
  return { ran, step };
}

const calls = (count: number) =>
  Array.from({ length: count }, (_, n) => ({ name: 'step', input: { n }, id: `c${n}` }));

describe('a response with 200 tool calls', () => {
  it(`runs the first ${DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE}; the rest become error results the model sees`, async () => {
    const { ran, step } = counting();
    const backend = scriptedBackend([{ toolCalls: calls(200) }, { text: 'ok' }]);
    const client = new Client({ model: 'm', backend, tools: [step], autoExecuteTools: true });
    const events = await collect(client.run('go'));
    expect(ran).toHaveLength(DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE);
    expect(ran).toEqual(Array.from({ length: DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE }, (_, n) => n));
    const refused = events.filter((event) => event.type === 'tool_use_error');
    expect(refused).toHaveLength(200 - DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE);
    expect(refused[0]).toMatchObject({
      code: 'TOOL_DENIED',
      toolUseId: `c${DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE}`,
    });
    // Every call has its result in the next request: the model is told why.
    const sent = backend.requests[1]?.messages.filter((message) => message.role === 'tool') ?? [];
    expect(sent).toHaveLength(200);
    expect(sent.at(-1)?.content).toMatch(/maxToolCallsPerResponse/);
  });

  it('takes another limit from the options', async () => {
    const { ran, step } = counting();
    const backend = scriptedBackend([{ toolCalls: calls(5) }, { text: 'ok' }]);
    const client = new Client({
      model: 'm',
      backend,
      tools: [step],
      autoExecuteTools: true,
      maxToolCallsPerResponse: 2,
    });
    await collect(client.run('go'));
    expect(ran).toEqual([0, 1]);
  });
});

describe('a 5 MB tool result', () => {
  it('is stored and sent truncated with a marker; the tool_result event keeps the whole value', async () => {
    const huge = 'x'.repeat(5_000_000);
    const big = tool({ name: 'big', description: 'Big', input: z.object({}), execute: () => huge });
    const history = memoryHistory();
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'big', input: {}, id: 'b' }] },
      { text: 'ok' },
    ]);
    const client = new Client({
      model: 'm',
      backend,
      tools: [big],
      autoExecuteTools: true,
      history,
      conversationId: 'c',
    });
    const events = await collect(client.run('go'));
    await client.close();
    const result = events.find((event) => event.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.content).toBe(huge);
    const stored = (await history.load('c'))?.messages.find((message) => message.role === 'tool');
    const text = typeof stored?.content === 'string' ? stored.content : '';
    expect(text.length).toBeLessThan(DEFAULT_MAX_TOOL_RESULT_CHARACTERS + 500);
    expect(text).toMatch(/truncated/);
    const sent = backend.requests[1]?.messages.find((message) => message.role === 'tool');
    expect(typeof sent?.content === 'string' && sent.content.length).toBeLessThan(
      DEFAULT_MAX_TOOL_RESULT_CHARACTERS + 500,
    );
  });
});
