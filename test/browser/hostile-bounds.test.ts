import { afterEach, expect, test } from 'vitest';
import { DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE } from '../../src/index.js';
import { manyCallsChat } from '../support/many-calls-chat.js';

// Measured fact 6 of issue 27: 200 calls in one answer froze the page for 2.3 s. This test runs
// and renders them in <agent-chat> and REPORTS the main thread's long tasks (a Long Tasks API
// observer): timing is for `npm run bench` and the report, not an assertion here.

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

async function twoHundredCalls(limit: number | undefined) {
  const { chat, ran } = manyCallsChat({
    count: 200,
    ...(limit === undefined ? {} : { limit }),
  });
  document.body.append(chat);
  mounted.push(chat);
  await chat.updateComplete;

  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(Math.round(entry.duration));
  });
  observer.observe({ type: 'longtask', buffered: false });
  const started = performance.now();
  await chat.send('Take 200 steps');
  await expect
    .poll(() => chat.shadowRoot?.querySelector('article.assistant')?.textContent, {
      timeout: 30_000,
    })
    .toContain('All done.');
  // Many new cards are built a batch per render: the last ones may follow the answer's text.
  await expect
    .poll(() => chat.shadowRoot?.querySelectorAll('section.tool').length, { timeout: 30_000 })
    .toBe(200);
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
  observer.disconnect();
  const cards = chat.shadowRoot?.querySelectorAll('section.tool').length ?? 0;
  console.log(
    `200 calls (limit ${limit ?? DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE}): ran ${ran.length}, ${cards} cards, ` +
      `${Math.round(performance.now() - started)} ms in all; long tasks (ms): ${JSON.stringify(longTasks)}; longest ${Math.max(0, ...longTasks)} ms`,
  );
  return { ran, cards };
}

test('200 calls with the default limit: 32 run, every call gets a card', async () => {
  const { ran, cards } = await twoHundredCalls(undefined);
  expect(ran).toHaveLength(DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE);
  expect(cards).toBe(200);
});

test('200 calls with the limit raised to 200: all run and render (long tasks reported)', async () => {
  const { ran, cards } = await twoHundredCalls(200);
  expect(ran).toHaveLength(200);
  expect(cards).toBe(200);
});
