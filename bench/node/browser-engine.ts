import type { Page } from 'playwright';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type {
  EngineBenchApi,
  Generation,
  MainThreadWatch,
  ToolCost,
} from '../browser/engine/engine-bench-api.js';
import { BenchUnavailable, withBenchPage } from '../support/bench-page.js';
import { checked, info, skipped, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';

const WARM_UP_ROUNDS = 2;
const ROUNDS = 15;
const WATCHED_RUNS = 3;
const PROBE_CHECK_MS = 60;
const MAX_TOKENS = 256;
const TOOL_COUNTS = [0, 1, 5, 10];
/** A real chat model's BPE vocabulary (Llama 3, Qwen, Gemma) takes ≈ 4 characters of English or JSON per token. */
const CHARS_PER_TOKEN = 4;

/** The prompt cost of constrained tools for each count of tools, against none. */
function toolCostFigures(costs: readonly ToolCost[]): Figure[] {
  const none = costs.find((cost) => cost.tools === 0);
  if (!none) return [];
  return costs
    .filter((cost) => cost.tools > 0)
    .flatMap((cost) => [
      info({
        id: `engine.tools.${cost.tools}.prompt-tokens`,
        label: `constrained tools: prompt tokens added by ${cost.tools} tool${cost.tools === 1 ? '' : 's'} (wllama, tiny model)`,
        value: cost.promptTokens - none.promptTokens,
        unit: 'tokens',
        note: `${none.promptTokens} → ${cost.promptTokens}; the tiny model's ASCII byte-level vocabulary (${(cost.instructionsChars / Math.max(1, cost.promptTokens - none.promptTokens)).toFixed(1)} characters a token here); ${cost.instructionsChars} characters of instructions ≈ ${Math.round(cost.instructionsChars / CHARS_PER_TOKEN)} tokens of a real BPE vocabulary (≈ ${CHARS_PER_TOKEN} characters a token)`,
      }),
      info({
        id: `engine.tools.${cost.tools}.chrome-input`,
        label: `constrained tools: Chrome built-in AI input added by ${cost.tools} tool${cost.tools === 1 ? '' : 's'} (fake LanguageModel)`,
        value: cost.chromeInputChars - none.chromeInputChars,
        unit: 'chars',
        note: `${none.chromeInputChars} → ${cost.chromeInputChars} characters handed to the session (≈ ${Math.round((cost.chromeInputChars - none.chromeInputChars) / CHARS_PER_TOKEN)} tokens at ≈ ${CHARS_PER_TOKEN} characters a token); the JSON Schema constraint is not added to the input (omitResponseConstraintInput)`,
      }),
    ]);
}

/**
 * The in-page engine (issue 32): wllama 3.13 on the tiny random-weight GGUF the tests write,
 * in headless Chromium on the CPU. Tokens/s and time to first token through `Client.run` on
 * `wllamaBackend` vs wllama's own `createChatCompletion` loop on the same engine with the same
 * request (greedy, so the same tokens), paired rounds in alternating order; the longest
 * main-thread task while generating (a probe checked on a known long task first); the prompt cost of the constrained-tools instructions for 1, 5 and 10 tools
 * (wllama's tokens, and the text Chrome's Prompt API is handed); and the bytes the
 * engines add to a page.
 */
export async function browserEngine(): Promise<Figure[]> {
  const figures = await engineBytes();
  try {
    figures.push(...(await withBenchPage('bench/browser/engine', measure)));
  } catch (error) {
    if (!(error instanceof BenchUnavailable)) throw error;
    figures.push(
      skipped({
        id: 'engine.tokens.ratio',
        label: 'in-page engine figures',
        unit: '',
        note: error.message,
      }),
    );
  }
  return figures;
}

/** Both paths, one after the other, in the order `rawFirst` says. */
async function pair(page: Page, rawFirst: boolean): Promise<{ raw: Generation; ours: Generation }> {
  const raw = () => page.evaluate(() => (window.engineBench as EngineBenchApi).raw());
  const ours = () =>
    page.evaluate((max) => (window.engineBench as EngineBenchApi).client(max), MAX_TOKENS);
  if (rawFirst) {
    const first = await raw();
    return { raw: first, ours: await ours() };
  }
  const first = await ours();
  return { raw: await raw(), ours: first };
}

const rate = (run: Generation) => run.tokens / (run.totalMs / 1000);
/** Tokens/s after the first token: the decoding alone, without the prompt's processing. */
const decodeRate = (run: Generation) =>
  (run.tokens - 1) / ((run.totalMs - run.firstTokenMs) / 1000);
const spread = (values: readonly number[], digits: number) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

async function measure(page: Page): Promise<Figure[]> {
  await page.waitForFunction(() => window.engineBench !== undefined);
  const { loadMs } = await page.evaluate(() => (window.engineBench as EngineBenchApi).load());
  // Warm-up rounds (not counted): the first generations pay for lazy modules, the engine's
  // first batches and the prompt cache; the first client run also records the request the raw
  // path replays.
  for (let round = 0; round < WARM_UP_ROUNDS; round++) await pair(page, round % 2 === 1);
  const sent = await page.evaluate(() => (window.engineBench as EngineBenchApi).lastParams());
  const pairs: { raw: Generation; ours: Generation }[] = [];
  for (let round = 0; round < ROUNDS; round++) pairs.push(await pair(page, round % 2 === 0));
  for (const { raw, ours } of pairs) {
    // Greedy decoding of the same request on the same engine: anything else is a broken bench.
    if (raw.tokens !== ours.tokens || raw.text !== ours.text || raw.tokens !== MAX_TOKENS)
      throw new Error(
        `the two paths generated different answers (${raw.tokens} vs ${ours.tokens} tokens, max ${MAX_TOKENS}): the comparison would not be like for like`,
      );
  }
  const ratios = pairs.map(({ raw, ours }) => rate(ours) / rate(raw));
  // The least disturbed run of each path: on a busy machine other processes only ever slow a run down.
  const bestRatio =
    Math.max(...pairs.map(({ ours }) => rate(ours))) /
    Math.max(...pairs.map(({ raw }) => rate(raw)));
  const decodeRatios = pairs.map(({ raw, ours }) => decodeRate(ours) / decodeRate(raw));
  const ttftOverheads = pairs.map(({ raw, ours }) => ours.firstTokenMs - raw.firstTokenMs);
  const ourRates = pairs.map(({ ours }) => rate(ours));
  const rawRates = pairs.map(({ raw }) => rate(raw));
  const pieces = pairs.map(({ raw, ours }) => `${raw.pieces}/${ours.pieces}`);

  const probe = await page.evaluate(
    (ms) => (window.engineBench as EngineBenchApi).checkProbes(ms),
    PROBE_CHECK_MS,
  );
  if (probe.gapMs < PROBE_CHECK_MS || probe.longTaskMs < PROBE_CHECK_MS)
    throw new Error(
      `the main-thread probes missed a ${PROBE_CHECK_MS} ms task (gap probe ${probe.gapMs.toFixed(0)} ms, longtask observer ${probe.longTaskMs.toFixed(0)} ms): they would report 0 for anything`,
    );
  const watched: MainThreadWatch[] = [];
  for (let run = 0; run < WATCHED_RUNS; run++)
    watched.push(
      await page.evaluate((max) => (window.engineBench as EngineBenchApi).watched(max), MAX_TOKENS),
    );
  const longestGap = Math.max(...watched.map((run) => run.longestGapMs));
  const costs = await page.evaluate(
    (counts) => (window.engineBench as EngineBenchApi).toolPromptTokens(counts),
    TOOL_COUNTS,
  );
  return [
    info({
      id: 'engine.load',
      label: 'wllama: load the tiny model (compile 10 MB wasm + load)',
      value: loadMs,
      unit: 'ms',
      note: 'through wllamaBackend.load()',
    }),
    info({
      id: 'engine.tokens.client',
      label: 'wllama: tokens/s through Client.run',
      value: median(ourRates),
      unit: 'tok/s',
      note: `median of ${ROUNDS} (${spread(ourRates, 0)}), ${MAX_TOKENS} tokens each by the engine's count, time to first token included; wllama's own loop on the same engine: ${median(rawRates).toFixed(0)} tok/s (${spread(rawRates, 0)})`,
    }),
    checked({
      id: 'engine.tokens.ratio',
      label: "wllama: Client.run's tokens/s ÷ wllama's own loop's",
      value: median(ratios),
      unit: '×',
      target: { op: '>=', limit: 0.95 },
      note: `median of ${ROUNDS} paired rounds (${spread(ratios, 3)}), order alternated, after ${WARM_UP_ROUNDS} warm-up rounds; one engine, and the raw loop replays the request the backend sent (${sent.length} characters: same messages, max_tokens ${MAX_TOKENS}, temperature 0, seed); every pair generated the same ${MAX_TOKENS} tokens, text pieces raw/ours ${[...new Set(pieces)].join(', ')}; decoding alone (after the first token): ${median(decodeRatios).toFixed(3)}× (${spread(decodeRatios, 3)}); best run of each: ${bestRatio.toFixed(3)}×`,
    }),
    checked({
      id: 'engine.ttft.overhead',
      label: 'wllama: time-to-first-token overhead of Client.run',
      value: median(ttftOverheads),
      unit: 'ms',
      target: { op: '<=', limit: 5 },
      note: `median over the ${ROUNDS} pairs of (first text event of Client.run − first content chunk of wllama's own loop), spread ${spread(ttftOverheads, 2)} ms; wllama's own first token: ${median(pairs.map(({ raw }) => raw.firstTokenMs)).toFixed(1)} ms`,
    }),
    checked({
      id: 'engine.longtask',
      label: 'wllama: longest main-thread task while generating',
      value: Math.max(...watched.map((run) => run.longestTaskMs)),
      unit: 'ms',
      target: { op: '<', limit: 50 },
      note: `the longtask observer over ${WATCHED_RUNS} Client.run generations of ${MAX_TOKENS} tokens: ${watched.reduce((sum, run) => sum + run.longTasks, 0)} tasks ≥ 50 ms (it reports none shorter: 0 = none). It was first shown a deliberate ${PROBE_CHECK_MS} ms task and reported ${probe.longTaskMs.toFixed(0)} ms, so 0 is measured, not a missing observer. The engine runs in wllama's worker; the main thread only relays its messages`,
    }),
    info({
      id: 'engine.main-thread-gap',
      label: 'wllama: longest main-thread gap while generating (setTimeout(0) probe)',
      value: longestGap,
      unit: 'ms',
      note: `an upper bound of the longest task of any length: the longest time between two turns of a setTimeout(0) probe over the same ${WATCHED_RUNS} generations (median of their longest: ${median(watched.map((run) => run.longestGapMs)).toFixed(1)} ms), ≈ 4 ms of timer clamp and any time the OS gave the CPU to other processes included (the ${PROBE_CHECK_MS} ms check task read ${probe.gapMs.toFixed(0)} ms)`,
    }),
    ...toolCostFigures(costs),
  ];
}

/** Bytes each engine adds: its adapter in the first load of an app that imports it, the library and wasm on first use. */
async function engineBytes(): Promise<Figure[]> {
  const gzip = async (code: string) => {
    const result = await build({
      stdin: { contents: code, resolveDir: process.cwd(), loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    return gzipSync(result.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length;
  };
  // What each adapter adds to an app that already has Client (the difference of two first loads).
  const client = await gzip("export { Client } from './src/index.ts';");
  const wllamaAdapter =
    (await gzip("export { Client, wllamaBackend } from './src/index.ts';")) - client;
  const chromeAdapter =
    (await gzip("export { Client, chromeAIBackend } from './src/index.ts';")) - client;
  const library = gzipSync(readFileSync('node_modules/@wllama/wllama/esm/index.js'), {
    level: 9,
  }).length;
  const wasm = readFileSync('node_modules/@wllama/wllama/esm/wasm/wllama.wasm');
  return [
    info({
      id: 'engine.bytes.first-load',
      label: 'engines: bytes added to a first load that does not use them',
      value: 0,
      unit: 'B',
      note: 'tree-shaken; the size-limit budgets of npm run size (unchanged) check it',
    }),
    info({
      id: 'engine.bytes.wllama-adapter',
      label: 'wllamaBackend: adapter added to the first load of an app with Client',
      value: wllamaAdapter / 1024,
      unit: 'KiB gz',
      note: 'constrained tools, loading, stream; @wllama/wllama itself comes through the app’s library: () => import(…)',
    }),
    info({
      id: 'engine.bytes.chrome-adapter',
      label: 'chromeAIBackend: adapter added to the first load of an app with Client',
      value: chromeAdapter / 1024,
      unit: 'KiB gz',
    }),
    info({
      id: 'engine.bytes.wllama-first-use',
      label: 'wllama: loaded on first use (JS + wasm)',
      value: (library + wasm.length) / 1024 / 1024,
      unit: 'MiB',
      note: `@wllama/wllama esm/index.js ${(library / 1024).toFixed(0)} KiB gz (worker code inside) + wllama.wasm ${(wasm.length / 1024 / 1024).toFixed(1)} MiB (${(gzipSync(wasm, { level: 9 }).length / 1024 / 1024).toFixed(1)} MiB gz), then the model`,
    }),
  ];
}
