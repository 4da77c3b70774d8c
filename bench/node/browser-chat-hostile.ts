import type { Page } from 'playwright';
import type {
  ChatBenchApi,
  OpenTimes,
  StreamOptions,
  StreamTimes,
} from '../browser/chat/chat-bench-api.js';
import type { HostileAnswer } from '../browser/chat/hostile-answers.js';
import { checked, info, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';

const ROUNDS = 5;
/**
 * The pace of the paced stream: the issue measured 4.4 s for the 1 MB answer's ~1,000 deltas
 * without rendering, ~4.4 ms a delta. That is already far faster than any local model writes
 * (1 KiB is ~250 tokens; llama.cpp or Ollama on one GPU: 30–150 tokens/s, seconds per KiB),
 * so it is the hard end of what a user sees, not a flattering one.
 */
const INTERVAL_MS = 4.4;
const DELTA_SIZE = 1_024;

type Run = (
  answer: HostileAnswer,
  options: { render: boolean; intervalMs?: number },
) => Promise<StreamTimes>;

/**
 * Issue 18: hostile or huge answers streamed in 1 KiB deltas (and, collapsed, expanded with
 * "Show more"). The 1 MB target is measured as the issue did: over HTTP from the bench's server
 * at a model's pace, against the same stream read by a Client with no element, in the same page.
 */
export async function measureHostile(page: Page): Promise<Figure[]> {
  const run: Run = (answer, { render, intervalMs }) =>
    page.evaluate((options) => (window.chatBench as ChatBenchApi).stream(options), {
      deltas: 0,
      render,
      answer,
      deltaSize: DELTA_SIZE,
      expand: true,
      ...(intervalMs === undefined ? {} : { intervalMs }),
    } satisfies StreamOptions);
  const memory = await pairs(run, {}, ROUNDS + 1); // the first pair warms the JIT and is dropped
  memory.bare.shift();
  memory.rendered.shift();
  const paced = await pairs(run, { intervalMs: INTERVAL_MS }, ROUNDS);
  const http = await pairs(run, { intervalMs: 0 }, ROUNDS);
  const streamed = [...paced.rendered, ...http.rendered, ...memory.rendered];
  const figures: Figure[] = [
    checked({
      id: 'chat.hostile.megabyte.ratio',
      label: `<agent-chat> 1 MB without a blank line, 1 KiB deltas every ${INTERVAL_MS} ms over HTTP: rendered / not rendered`,
      value: ratio(paced),
      unit: '×',
      target: { op: '<', limit: 2 },
      note: `the issue's measurement: SSE from the bench's server at ${INTERVAL_MS} ms a delta, read by fetch; ${spread(paced)}`,
    }),
    info({
      id: 'chat.hostile.megabyte.http.ratio',
      label: '<agent-chat> 1 MB, 1 KiB deltas over HTTP, unpaced: rendered / not rendered',
      value: ratio(http),
      unit: '×',
      note: `every delta written at once; the socket and fetch decide the reads; ${spread(http)}`,
    }),
    info({
      id: 'chat.hostile.megabyte.memory.ratio',
      label: '<agent-chat> 1 MB, 1 KiB deltas from memory: rendered / not rendered',
      value: ratio(memory),
      unit: '×',
      note: `no network: the Client alone takes a few ms, so this measures the frames rendering waits for, not what a user sees; ${spread(memory)}`,
    }),
    checked({
      id: 'chat.hostile.megabyte.longest-task',
      label: '<agent-chat> 1 MB without a blank line: longest main-thread task while streaming',
      value: Math.max(...streamed.map((times) => times.longestTaskMs)),
      unit: 'ms',
      target: { op: '<', limit: 50 },
      note: `over ${streamed.length} runs (paced, unpaced, in memory): ${streamed.map((times) => times.longTasks).join('/')} long tasks; longest frame gap ${Math.max(...streamed.map((times) => times.longestFrameGapMs)).toFixed(0)} ms; ${longestFrame(streamed)}`,
    }),
    expandedFigure('megabyte', 'the 1 MB answer', streamed, 50),
    await openedFigure(page),
  ];
  for (const [answer, label] of [
    ['list-1000-levels', 'a 1,000-level nested list'],
    ['word-100000', 'a 100,000-character word'],
  ] as const) {
    const times: StreamTimes[] = [];
    for (let round = 0; round < ROUNDS; round++) times.push(await run(answer, { render: true }));
    figures.push(
      checked({
        id: `chat.hostile.${answer}.longest-task`,
        label: `<agent-chat> ${label}: longest main-thread task`,
        value: Math.max(...times.map((each) => each.longestTaskMs)),
        unit: 'ms',
        target: { op: '<', limit: 100 },
        note: `streamed in 1 KiB deltas from memory, ${ROUNDS} runs: ${times.map((each) => each.totalMs.toFixed(0)).join('/')} ms to last paint; ${times.map((each) => each.longTasks).join('/')} long tasks; ${longestFrame(times)}`,
      }),
      expandedFigure(answer, label, times, 100),
    );
  }
  return figures;
}

/** Opening a stored conversation with the 1 MB answer in it: the longest task until it shows. */
async function openedFigure(page: Page): Promise<Figure> {
  const opened: OpenTimes[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    opened.push(
      await page.evaluate(
        (huge) => (window.chatBench as ChatBenchApi).open({ messages: 20, huge }),
        'megabyte-no-blank-line' as const,
      ),
    );
  }
  return checked({
    id: 'chat.hostile.megabyte.open.longest-task',
    label: '<agent-chat> open a conversation with the 1 MB answer: longest main-thread task',
    value: Math.max(...opened.map((times) => times.longestTaskMs)),
    unit: 'ms',
    target: { op: '<', limit: 50 },
    note: `IndexedDB, 20 messages + the answer + a short exchange after it; element added → the last message on screen, no markdown still rendering, ${ROUNDS} runs: ${opened.map((times) => times.firstPaintMs.toFixed(0)).join('/')} ms; ${opened.map((times) => times.longTasks).join('/')} long tasks; ${longestFrame(opened)}`,
  });
}

interface Pairs {
  bare: StreamTimes[];
  rendered: StreamTimes[];
}

/** `rounds` pairs of the 1 MB answer, Client only then `<agent-chat>`, alternated so drift hits both alike. */
async function pairs(run: Run, options: { intervalMs?: number }, rounds: number): Promise<Pairs> {
  const result: Pairs = { bare: [], rendered: [] };
  for (let round = 0; round < rounds; round++) {
    result.bare.push(await run('megabyte-no-blank-line', { ...options, render: false }));
    result.rendered.push(await run('megabyte-no-blank-line', { ...options, render: true }));
  }
  return result;
}

function ratio({ bare, rendered }: Pairs): number {
  return (
    median(rendered.map((times) => times.totalMs)) / median(bare.map((times) => times.totalMs))
  );
}

function spread({ bare, rendered }: Pairs): string {
  const ratios = rendered.map(
    (times, index) => times.totalMs / (bare[index]?.totalMs ?? Number.NaN),
  );
  return `medians of ${rendered.length}: ${median(rendered.map((times) => times.totalMs)).toFixed(0)} ms rendered (to the first paint with everything up to "Show more" on screen), ${median(bare.map((times) => times.totalMs)).toFixed(0)} ms Client only; per-pair ratios ${ratios.map((each) => each.toFixed(2)).join('/')}`;
}

/** "Show more" on a collapsed answer: the longest task until its last line is on screen. */
function expandedFigure(
  id: string,
  label: string,
  runs: readonly StreamTimes[],
  limit: number,
): Figure {
  const expanded = runs.flatMap((times) => (times.expanded ? [times.expanded] : []));
  if (expanded.length === 0) {
    return info({
      id: `chat.hostile.${id}.expanded`,
      label: `<agent-chat> ${label}: not collapsed (no "Show more")`,
      value: 0,
      unit: 'ms',
    });
  }
  return checked({
    id: `chat.hostile.${id}.expanded.longest-task`,
    label: `<agent-chat> ${label}, "Show more": longest main-thread task`,
    value: Math.max(...expanded.map((times) => times.longestTaskMs)),
    unit: 'ms',
    target: { op: '<', limit },
    note: `click to its last line on screen, rendered in slices, ${expanded.length} runs: ${expanded.map((times) => times.totalMs.toFixed(0)).join('/')} ms; ${expanded.map((times) => times.longTasks).join('/')} long tasks; ${longestFrame(expanded)}`,
  });
}

/** The longest animation frame of these runs, and what it spent its time on. */
function longestFrame(runs: readonly { longestTaskMs: number; longestFrame: string }[]): string {
  const worst = [...runs].sort((a, b) => b.longestTaskMs - a.longestTaskMs)[0];
  return `the run with the longest task: longest frame ${worst?.longestFrame ?? 'none'}`;
}
