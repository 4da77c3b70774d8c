import { afterEach, expect, test } from 'vitest';
import '../../components/index.js';
import { memoryHistory, type AgentEvent, type Message } from '../../src/index.js';
import { manyCallsChat } from '../support/many-calls-chat.js';
import { loadToolCards } from '../../components/tool-card/tool-card-loader.js';
import { CARDS_PER_RENDER } from '../../components/transcript/card-budget.js';
import { elapsedClock } from '../../components/tool-card/elapsed-time.js';

// Issue 27 item 6, the structure behind "200 calls render with no long task" (the timing is
// `npm run bench`'s): one render built all 200 cards at once. Now a render builds a batch, the
// rest follow in later renders, in order; every call still runs and every result shows.

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
}, 60_000);

// A guard, not a before/after test: during a run the cards already came a few per task.
test('200 calls run: their cards come a batch per render at most, in order, each with its result', async () => {
  const { chat, toolCalls } = manyCallsChat({
    count: 200,
    limit: 200,
    result: (n) => `result ${n}`,
  });
  document.body.append(chat);
  mounted.push(chat);
  await chat.updateComplete;
  const root = chat.shadowRoot;
  if (!root) throw new Error('no shadow root');

  // The card count after each render's DOM commit (a mutation observer runs after each).
  const counts: number[] = [];
  const observer = new MutationObserver(() => {
    const count = root.querySelectorAll('section.tool').length;
    if (count !== counts.at(-1)) counts.push(count);
  });
  observer.observe(root, { childList: true, subtree: true });
  const events: AgentEvent[] = [];
  chat.addEventListener('agent-event', (event) => events.push(event.detail));
  await chat.send('Take 200 steps');
  await expect
    .poll(() => root.querySelector('article.assistant')?.textContent, { timeout: 30_000 })
    .toContain('All done.');
  await expect.poll(() => root.querySelectorAll('section.tool.done').length).toBe(200);
  observer.disconnect();

  const growth = counts.map((count, index) => count - (counts[index - 1] ?? 0));
  expect(Math.max(...growth)).toBeLessThanOrEqual(CARDS_PER_RENDER);
  expect(counts.at(-1)).toBe(200);
  const cards = [...root.querySelectorAll('section.tool')];
  expect(
    cards.map((card) => card.querySelector('.tool-args')?.textContent?.replace(/\s/g, '')),
  ).toEqual(toolCalls.map(({ input }) => JSON.stringify(input)));
  expect(cards.map((card) => card.querySelector('.tool-result pre')?.textContent?.trim())).toEqual(
    toolCalls.map(({ input }) => `result ${input.n}`),
  );
  // The run's events are unchanged: every call, then every result, in the calls' order.
  const results = events.flatMap((event) =>
    event.type === 'tool_result' ? [event.toolUseId] : [],
  );
  expect(results).toEqual(toolCalls.map(({ id }) => id));
}, 60_000);

test('opening a conversation with 200 tool calls builds their cards a batch per render, in order', async () => {
  await loadToolCards();
  const history = memoryHistory();
  await history.append('many', twoHundredCallsDone());
  const chat = document.createElement('agent-chat');
  chat.style.height = '700px';
  chat.model = 'm';
  chat.baseUrl = 'http://127.0.0.1:9/v1';
  chat.history = history;
  chat.conversationId = 'many';
  const counts: number[] = [];
  const observer = new MutationObserver(() => {
    const count = chat.shadowRoot?.querySelectorAll('section.tool').length ?? 0;
    if (count !== counts.at(-1)) counts.push(count);
  });
  document.body.append(chat);
  mounted.push(chat);
  const root = chat.shadowRoot;
  if (!root) throw new Error('no shadow root');
  observer.observe(root, { childList: true, subtree: true });
  await expect.poll(() => root.querySelectorAll('section.tool.done').length).toBe(200);
  observer.disconnect();
  const growth = counts.map((count, index) => count - (counts[index - 1] ?? 0));
  expect(Math.max(...growth)).toBeLessThanOrEqual(CARDS_PER_RENDER);
  const cards = [...root.querySelectorAll('section.tool')];
  expect(cards.map((card) => card.querySelector('.tool-result pre')?.textContent?.trim())).toEqual(
    Array.from({ length: 200 }, (_, n) => `result ${n}`),
  );
}, 60_000);

// The profile of the bench's 200 calls: while the scripted model streamed the calls' arguments
// (all in one task), each new call re-rendered the chat, and each render built the
// "receiving" card of every call so far — 200 renders, one task of 180–280 ms.
test("200 calls' streamed arguments re-render the chat a few times, not once per call", async () => {
  const { chat } = manyCallsChat({ count: 200, limit: 200 });
  document.body.append(chat);
  mounted.push(chat);
  await chat.updateComplete;
  const root = chat.shadowRoot;
  if (!root) throw new Error('no shadow root');
  // One entry per DOM commit that changed the number of cards receiving arguments.
  const receiving: number[] = [];
  const observer = new MutationObserver(() => {
    const count = root.querySelectorAll('section.tool.receiving').length;
    if (count !== (receiving.at(-1) ?? 0)) receiving.push(count);
  });
  observer.observe(root, { childList: true, subtree: true });
  await chat.send('Take 200 steps');
  await expect
    .poll(() => root.querySelector('article.assistant')?.textContent, { timeout: 30_000 })
    .toContain('All done.');
  observer.disconnect();
  // A batch of cards per render at most (CARDS_PER_RENDER), and the renders one per task.
  expect(receiving.length).toBeLessThanOrEqual(2 * Math.ceil(200 / CARDS_PER_RENDER) + 2);
}, 60_000);

// The cards come a batch per render: the answer after them ("All done.") showed for about ten
// tasks below a list whose last cards were still coming (live, and when a conversation opens).
test('the answer after 200 calls shows only once every card is on the page', async () => {
  await loadToolCards();
  const history = memoryHistory();
  await history.append('many', twoHundredCallsDone());
  const chat = document.createElement('agent-chat');
  chat.style.height = '700px';
  chat.model = 'm';
  chat.baseUrl = 'http://127.0.0.1:9/v1';
  chat.history = history;
  chat.conversationId = 'many';
  // The number of cards on the page at each DOM commit that showed the answer.
  const cardsWithAnswer: number[] = [];
  const observer = new MutationObserver(() => {
    const root = chat.shadowRoot;
    if (root?.querySelector('article.assistant')?.textContent?.includes('All done.'))
      cardsWithAnswer.push(root.querySelectorAll('section.tool').length);
  });
  document.body.append(chat);
  mounted.push(chat);
  const root = chat.shadowRoot;
  if (!root) throw new Error('no shadow root');
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  await expect.poll(() => root.querySelectorAll('section.tool.done').length).toBe(200);
  await expect
    .poll(() => root.querySelector('article.assistant')?.textContent)
    .toContain('All done.');
  observer.disconnect();
  expect(cardsWithAnswer.length).toBeGreaterThan(0);
  expect(Math.min(...cardsWithAnswer)).toBe(200);
  // Its text comes after the last card.
  const article = root.querySelector('article.assistant');
  const last = [...root.querySelectorAll('section.tool')].at(-1);
  const answer = [...(article?.querySelectorAll('*') ?? [])].find(
    (element) => element.children.length === 0 && element.textContent?.includes('All done.'),
  );
  expect(last && answer && last.compareDocumentPosition(answer)).toBe(
    Node.DOCUMENT_POSITION_FOLLOWING,
  );
}, 60_000);

test('every running clock ticks on the one shared timer', async () => {
  await loadToolCards();
  const clocks = Array.from({ length: 50 }, () => {
    const clock = document.createElement('agent-elapsed');
    clock.setAttribute('since', String(performance.now()));
    return clock;
  });
  const box = document.createElement('div');
  box.append(...clocks);
  document.body.append(box);
  mounted.push(box);
  expect(elapsedClock.size).toBe(50);
  await expect.poll(() => clocks.every((clock) => clock.textContent !== '')).toBe(true);
  box.remove();
  expect(elapsedClock.size).toBe(0);
});

/** A stored conversation: a prompt, an answer with 200 calls, their results, "All done.". */
function twoHundredCallsDone(): Message[] {
  return [
    { role: 'user', content: 'Take 200 steps' },
    {
      role: 'assistant',
      content: null,
      tool_calls: Array.from({ length: 200 }, (_, n) => ({
        id: `c${n}`,
        type: 'function' as const,
        function: { name: 'step', arguments: JSON.stringify({ n }) },
      })),
    },
    ...Array.from({ length: 200 }, (_, n) => ({
      role: 'tool' as const,
      tool_call_id: `c${n}`,
      content: `result ${n}`,
    })),
    { role: 'assistant', content: 'All done.' },
  ];
}
