import type { Page } from 'playwright';
import type { CallsTimes, ChatBenchApi } from '../browser/chat/chat-bench-api.js';
import { BenchUnavailable, withBenchPage } from '../support/bench-page.js';
import { servePacedAnswers } from '../support/paced-answer-server.js';
import { checked, skipped, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';

const CALLS = 200;
const ROUNDS = 5;

/**
 * Issue 27 item 6: 200 tool calls in one answer (the app raised `maxToolCallsPerResponse`) run
 * and render in `<agent-chat>`: the longest main-thread task, first (cold) and then warm runs.
 */
export async function browserChatCalls(): Promise<Figure[]> {
  try {
    return await withBenchPage('bench/browser/chat', measureCalls, servePacedAnswers);
  } catch (error) {
    if (!(error instanceof BenchUnavailable)) throw error;
    return [
      skipped({
        id: 'chat.calls.longest-task',
        label: '<agent-chat> tool-call figures: not available yet',
        unit: '',
        note: error.message,
      }),
    ];
  }
}

async function measureCalls(page: Page): Promise<Figure[]> {
  await page.waitForFunction(() => window.chatBench !== undefined);
  const runs: CallsTimes[] = [];
  // The first run loads the tool cards' and the tool runner's code: it is kept (a user's first time).
  for (let round = 0; round <= ROUNDS; round++) {
    const times = await page.evaluate(
      (count) => (window.chatBench as ChatBenchApi).calls({ count }),
      CALLS,
    );
    if (times.ran !== CALLS || times.cards !== CALLS)
      throw new Error(`${CALLS} calls: ${times.ran} ran, ${times.cards} cards shown done`);
    runs.push(times);
  }
  const [cold, ...warm] = runs;
  return [
    checked({
      id: 'chat.calls.longest-task',
      label: `<agent-chat> ${CALLS} tool calls run and shown: longest main-thread task`,
      value: Math.max(...runs.map((times) => times.longestTaskMs)),
      unit: 'ms',
      target: { op: '<', limit: 100 },
      note: `PerformanceObserver('longtask') from the prompt to every card done and the answer after them; scripted model, tools that answer at once, maxToolCallsPerResponse ${CALLS}; first run (loads the cards' code) ${(cold?.longestTaskMs ?? 0).toFixed(0)} ms, then ${warm.map((times) => times.longestTaskMs.toFixed(0)).join('/')} ms; long tasks ${runs.map((times) => times.longTasks).join('/')}; longest frame gap ${Math.max(...runs.map((times) => times.longestFrameGapMs)).toFixed(0)} ms; median total ${median(runs.map((times) => times.totalMs)).toFixed(0)} ms`,
    }),
  ];
}
