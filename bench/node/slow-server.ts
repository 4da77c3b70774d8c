import type { Page } from 'playwright';
import { Client } from '../../src/loop/client.js';
import { startFakeOpenAIServer } from '../../test/support/fake-openai-server.mjs';
import { BenchUnavailable, withBenchPage } from '../support/bench-page.js';
import { checked, info, skipped, type Figure } from '../support/figure.js';

/** Every server duration is multiplied by this: a 70 s load takes 3.5 s. */
const SCALE = 0.05;
const PROFILE = {
  loadMs: 70_000,
  promptTokensPerSecond: 100,
  generationTokensPerSecond: 30,
  timeScale: SCALE,
};
/** About 8,000 tokens at ~4 characters a token. */
const PROMPT = `Summarise these notes. ${'The meeting moved to Thursday; bring the draft. '.repeat(660)}`;
const SETUP = `fake server on loopback, 70 s model load + ${Math.ceil(PROMPT.length / 4)}-token prompt at 100 tokens/s (+ 30 tokens/s generation), one slot, time-scaled ×${SCALE} (server durations; client times are real)`;

/** Figure: a default Client and <agent-chat> against a slow local server (issue #25). */
export async function slowServer(): Promise<Figure[]> {
  const figures = await nodeClient();
  try {
    figures.push(...(await browserChat()));
  } catch (error) {
    if (!(error instanceof BenchUnavailable)) throw error;
    figures.push(
      skipped({
        id: 'slow.chat.first-waiting',
        label: '<agent-chat> waiting state: not available',
        unit: '',
        note: error.message,
      }),
    );
  }
  return figures;
}

async function nodeClient(): Promise<Figure[]> {
  const server = await startFakeOpenAIServer({ latency: PROFILE });
  try {
    server.enqueue({ text: 'The meeting moved to Thursday.' });
    const client = new Client({ model: 'fake-model', baseURL: server.url, contextWindow: 32_768 });
    const started = performance.now();
    let firstWaiting: number | undefined;
    let firstToken: number | undefined;
    let waitingEvents = 0;
    let status = '';
    for await (const event of client.run(PROMPT)) {
      const at = performance.now() - started;
      if (event.type === 'waiting') {
        waitingEvents++;
        firstWaiting ??= at;
      }
      if (event.type === 'text') firstToken ??= at;
      if (event.type === 'done') status = event.status;
    }
    const chatPosts = server.requests.length;
    const serverFirst = server.latency[0]?.firstTokenMs ?? NaN;
    return [
      checked({
        id: 'slow.client.requests',
        label: 'default Client: chat requests sent for one answer',
        value: chatPosts,
        unit: '',
        target: { op: '<=', limit: 1 },
        note: `${SETUP}; run ended ${status}`,
      }),
      checked({
        id: 'slow.client.first-waiting',
        label: 'default Client: first waiting event after the call began',
        value: firstWaiting ?? NaN,
        unit: 'ms',
        target: { op: '<=', limit: 500 },
        note: `${waitingEvents} waiting events before the first token`,
      }),
      info({
        id: 'slow.client.first-token',
        label: 'default Client: first token (server’s own first token)',
        value: firstToken ?? NaN,
        unit: 'ms',
        note: `the server had its first token at ${serverFirst.toFixed(0)} ms after receiving the request (= ${(serverFirst / SCALE / 1000).toFixed(0)} s unscaled); the difference is the client's own time`,
      }),
    ];
  } finally {
    await server.close();
  }
}

async function browserChat(): Promise<Figure[]> {
  const server = await startFakeOpenAIServer({
    latency: PROFILE,
    responder: () => ({ text: 'The meeting moved to Thursday.' }),
  });
  try {
    const [cold, times] = await withBenchPage('bench/browser/slow', async (page: Page) => {
      await page.waitForFunction(() => window.slowBench !== undefined);
      const send = () =>
        page.evaluate(
          ([url, prompt]) =>
            (window.slowBench as NonNullable<Window['slowBench']>).send(url, prompt),
          [server.url, PROMPT] as const,
        );
      // The first Send of a page also loads the runtime's parts; the second is a page in use.
      const first = await send();
      server.latency.length = 0;
      server.requests.length = 0;
      server.unloadModel();
      return [first, await send()] as const;
    });
    const serverFirst = server.latency.at(-1)?.firstTokenMs ?? NaN;
    // <agent-chat> asks nothing before the chat request here (a known-size conversation may
    // probe the window); count what reached the chat route.
    const posts = server.requests.length;
    return [
      checked({
        id: 'slow.chat.requests',
        label: '<agent-chat>: chat requests sent for one answer',
        value: posts,
        unit: '',
        target: { op: '<=', limit: 1 },
        note: SETUP,
      }),
      checked({
        id: 'slow.chat.first-waiting',
        label: '<agent-chat>: waiting line first painted after Send',
        value: times.firstWaitingMs ?? NaN,
        unit: 'ms',
        target: { op: '<=', limit: 500 },
        note: `a second Send in the same page (fresh element, the model unloaded again); the page's first Send: ${(cold.firstWaitingMs ?? NaN).toFixed(0)} ms (it also loads the runtime's parts); last text before the answer: "${times.lastWaitingText ?? ''}"`,
      }),
      info({
        id: 'slow.chat.first-token',
        label: '<agent-chat>: first answer text painted after Send (server’s own first token)',
        value: times.firstTokenMs ?? NaN,
        unit: 'ms',
        note: `server: ${serverFirst.toFixed(0)} ms after receipt (= ${(serverFirst / SCALE / 1000).toFixed(0)} s unscaled); whole run ${times.totalMs.toFixed(0)} ms`,
      }),
    ];
  } finally {
    await server.close();
  }
}
