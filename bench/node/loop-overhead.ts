import { z } from 'zod';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { Client } from '../../src/loop/client.js';
import { maxIterations } from '../../src/loop/loop-strategies.js';
import { tool } from '../../src/tools/tool.js';
import type { ChatBackend } from '../../src/types/chat-request.js';
import { checked, info, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';

const ITERATIONS = 100;
const WARMUP = 10;
const REPEAT = 30;

/** Milliseconds spent in one part of a run, added up by the wrappers below. */
interface Clock {
  ms: number;
}

/**
 * `inner` with the time spent in its own code (creating the stream, and the synchronous part
 * of every `next()`: the generator body up to its next yield) added to `clock`, so the
 * scripted backend's work (it deep-copies every request) is not counted as loop overhead.
 */
function timedBackend(inner: ChatBackend, clock: Clock): ChatBackend {
  return {
    chat: {
      completions: {
        create(request, options) {
          const start = performance.now();
          const stream = inner.chat.completions.create(request, options);
          clock.ms += performance.now() - start;
          if (!(Symbol.asyncIterator in stream))
            throw new Error('bench expects scriptedBackend to return a stream at once');
          return {
            [Symbol.asyncIterator]() {
              const iterator = stream[Symbol.asyncIterator]();
              return {
                next() {
                  const begin = performance.now();
                  const result = iterator.next();
                  clock.ms += performance.now() - begin;
                  return result;
                },
                return: (value?: unknown) =>
                  iterator.return?.(value) ?? Promise.resolve({ done: true, value: undefined }),
              };
            },
          };
        },
      },
    },
  };
}

interface RunTimes {
  totalMs: number;
  toolMs: number;
  backendMs: number;
}

/** One prompt that the scripted model answers with a tool call every time, for 100 rounds. */
async function runLoop(): Promise<RunTimes> {
  const toolClock: Clock = { ms: 0 };
  const backendClock: Clock = { ms: 0 };
  const noop = tool({
    name: 'noop',
    description: 'Returns at once',
    input: z.object({ step: z.number() }),
    execute: ({ step }) => {
      const start = performance.now();
      const result = { step, ok: true };
      toolClock.ms += performance.now() - start;
      return result;
    },
  });
  const backend = timedBackend(
    scriptedBackend([], {
      respond: (_request, callIndex) => ({
        toolCalls: [{ name: 'noop', input: { step: callIndex } }],
      }),
    }),
    backendClock,
  );
  const client = new Client({
    model: 'scripted',
    backend,
    tools: [noop],
    autoExecuteTools: true,
    loopStrategy: maxIterations(ITERATIONS),
  });
  let results = 0;
  let status = '';
  const start = performance.now();
  for await (const event of client.run('Go')) {
    if (event.type === 'tool_result' && !event.isError) results++;
    if (event.type === 'done') status = event.status;
  }
  const totalMs = performance.now() - start;
  await client.close();
  if (results !== ITERATIONS || status !== 'max_iterations') {
    throw new Error(
      `loop bench expected ${ITERATIONS} tool results and max_iterations, got ${results} and "${status}"`,
    );
  }
  return { totalMs, toolMs: toolClock.ms, backendMs: backendClock.ms };
}

/** Figure 3: what the loop costs per tool round, with an instant model and an instant tool. */
export async function loopOverhead(): Promise<Figure[]> {
  const perIteration: number[] = [];
  const withoutBackend: number[] = [];
  const backendShare: number[] = [];
  for (let round = 0; round < WARMUP + REPEAT; round++) {
    const run = await runLoop();
    if (round < WARMUP) continue;
    perIteration.push(((run.totalMs - run.toolMs) / ITERATIONS) * 1000);
    withoutBackend.push(((run.totalMs - run.toolMs - run.backendMs) / ITERATIONS) * 1000);
    backendShare.push((run.backendMs / ITERATIONS) * 1000);
  }
  return [
    checked({
      id: 'loop.per-iteration',
      label: `loop: per tool iteration (${ITERATIONS} rounds), excl. tool + fake model`,
      value: median(withoutBackend),
      unit: 'µs',
      target: { op: '<', limit: 200 },
      note: `scriptedBackend + Client({ autoExecuteTools, loopStrategy: maxIterations(${ITERATIONS}) }), a zod tool that returns at once; median of ${REPEAT} runs after ${WARMUP} warm-ups. Excludes the time inside execute and inside scriptedBackend (its structuredClone of each growing request); the turns carry no usage, so the loop estimates it`,
    }),
    info({
      id: 'loop.per-iteration-incl-backend',
      label: 'loop: per tool iteration, excl. tool only (scriptedBackend included)',
      value: median(perIteration),
      unit: 'µs',
      note: `scriptedBackend's own share: ${median(backendShare).toFixed(0)} µs/iteration`,
    }),
  ];
}
