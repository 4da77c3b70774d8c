import { expect, it } from 'vitest';
import { z } from 'zod';
import { Client, scriptedBackend, tool, type AgentEvent } from '../../src/index.js';
import { collect } from '../support/collect.js';

// Issue 27 item 6, the structure behind "200 calls execute with no long task" (the timing is
// `npm run bench`'s): tools that answer at once ran back to back in one task. Now the loop hands
// the main thread back between them after a slice of work, and the events keep their order.

it('hands the main thread back between 200 synchronous tools, results in the calls order', async () => {
  const order: (number | 'other task')[] = [];
  const step = tool({
    name: 'step',
    description: 'One step that keeps the thread busy for a millisecond',
    input: z.object({ n: z.number() }),
    execute: ({ n }) => {
      if (n === 0) setTimeout(() => order.push('other task'), 0);
      const until = performance.now() + 1;
      while (performance.now() < until) {
        // Synchronous work, as a tool that answers at once does.
      }
      order.push(n);
      return `step ${n}`;
    },
  });
  const toolCalls = Array.from({ length: 200 }, (_, n) => ({
    name: 'step',
    input: { n },
    id: `c${n}`,
  }));
  const client = new Client({
    model: 'm',
    backend: scriptedBackend([{ toolCalls }, { text: 'ok' }]),
    tools: [step],
    autoExecuteTools: true,
    maxToolCallsPerResponse: 200,
  });
  const events: AgentEvent[] = await collect(client.run('go'));
  // Another task ran while the calls were running, not only after the last one.
  const other = order.indexOf('other task');
  expect(other).toBeGreaterThan(0);
  expect(other).toBeLessThan(200);
  expect(order.filter((entry) => entry !== 'other task')).toEqual(toolCalls.map((_, n) => n));
  const results = events.flatMap((event) =>
    event.type === 'tool_result' ? [`${event.toolUseId}:${String(event.content)}`] : [],
  );
  expect(results).toEqual(toolCalls.map(({ id, input }) => `${id}:step ${input.n}`));
});
