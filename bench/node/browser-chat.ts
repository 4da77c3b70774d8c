import type { Page } from 'playwright';
import type { ChatBenchApi, StreamTimes } from '../browser/chat/chat-bench-api.js';
import { BenchUnavailable, withBenchPage } from '../support/bench-page.js';
import { servePacedAnswers } from '../support/paced-answer-server.js';
import { measureHostile } from './browser-chat-hostile.js';
import { checked, info, skipped, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';

const DELTAS = 5_000;
const OPEN_MESSAGES = 1_000;
const ROUNDS = 5;

/** Figure 5: `<agent-chat>` streaming and opening a long conversation (its size: bundle-sizes.ts). */
export async function browserChat(): Promise<Figure[]> {
  const figures: Figure[] = [];
  try {
    figures.push(...(await withBenchPage('bench/browser/chat', measureChat, servePacedAnswers)));
  } catch (error) {
    if (!(error instanceof BenchUnavailable)) throw error;
    figures.push(
      skipped({
        id: 'chat.stream.longest-task',
        label: '<agent-chat> figures: not available yet',
        unit: '',
        note: error.message,
      }),
    );
  }
  return figures;
}

async function measureChat(page: Page): Promise<Figure[]> {
  await page.waitForFunction(() => window.chatBench !== undefined);
  let warmup: StreamTimes | undefined;
  const opened = await page.evaluate(
    (messages) => (window.chatBench as ChatBenchApi).open({ messages }),
    OPEN_MESSAGES,
  );
  const openedBranched = await page.evaluate(
    (messages) => (window.chatBench as ChatBenchApi).open({ messages, branches: 20 }),
    OPEN_MESSAGES,
  );
  const rendered: StreamTimes[] = [];
  const bare: StreamTimes[] = [];
  // Alternate so drift hits both alike; the first pair only warms the JIT and is dropped.
  for (let round = 0; round <= ROUNDS; round++) {
    const withoutRendering = await page.evaluate(
      (deltas) => (window.chatBench as ChatBenchApi).stream({ deltas, render: false }),
      DELTAS,
    );
    const withRendering = await page.evaluate(
      (deltas) => (window.chatBench as ChatBenchApi).stream({ deltas, render: true }),
      DELTAS,
    );
    if (round === 0) {
      warmup = withRendering;
      continue;
    }
    bare.push(withoutRendering);
    rendered.push(withRendering);
  }
  const longestTask = Math.max(...rendered.map((run) => run.longestTaskMs));
  const longestGap = Math.max(...rendered.map((run) => run.longestFrameGapMs));
  const renderedMs = median(rendered.map((run) => run.totalMs));
  const bareMs = median(bare.map((run) => run.totalMs));
  return [
    checked({
      id: 'chat.stream.longest-task',
      label: `<agent-chat> ${DELTAS} deltas: longest main-thread task`,
      value: longestTask,
      unit: 'ms',
      target: { op: '<', limit: 50 },
      note: `the longest PerformanceObserver('longtask') entry over ${ROUNDS} runs after a warm-up run (${rendered.map((run) => run.longTasks).join('/')} long tasks; 0 ms = none reached 50 ms; the cold first run's longest: ${(warmup?.longestTaskMs ?? 0).toFixed(0)} ms); ${DELTAS} markdown deltas through the real fetch transport, 4 KiB reads each in its own task`,
    }),
    checked({
      id: 'chat.stream.longest-frame-gap',
      label: `<agent-chat> ${DELTAS} deltas: longest gap between frames`,
      value: longestGap,
      unit: 'ms',
      target: { op: '<', limit: 50 },
      note: `requestAnimationFrame gaps while streaming (${rendered.map((run) => run.frames).join('/')} frames); without rendering: ${Math.max(...bare.map((run) => run.longestFrameGapMs)).toFixed(0)} ms`,
    }),
    info({
      id: 'chat.stream.total',
      label: `<agent-chat> ${DELTAS} deltas: total, to last paint`,
      value: renderedMs,
      unit: 'ms',
    }),
    info({
      id: 'chat.stream.bare',
      label: `${DELTAS} deltas, Client only (no rendering)`,
      value: bareMs,
      unit: 'ms',
    }),
    info({
      id: 'chat.stream.ratio',
      label: `<agent-chat> ${DELTAS} deltas: rendered / not rendered`,
      value: renderedMs / bareMs,
      unit: '×',
      note: `median of ${ROUNDS} each, alternated`,
    }),
    ...(await measureHostile(page)),
    checked({
      id: 'chat.open.1000',
      label: `<agent-chat> open ${OPEN_MESSAGES}-message conversation`,
      value: opened.firstPaintMs,
      unit: 'ms',
      target: { op: '<', limit: 300 },
      note: `element added → first paint showing the last message; IndexedDB store, fresh instance; ${opened.stored} messages`,
    }),
    checked({
      id: 'chat.open.1000.branches',
      label: `<agent-chat> open ${OPEN_MESSAGES}-message conversation with branches`,
      value: openedBranched.firstPaintMs,
      unit: 'ms',
      target: { op: '<', limit: 300 },
      note: `as above, ${openedBranched.forks} answers with an earlier version (20 messages each), stored as forks (issue 16)`,
    }),
  ];
}
