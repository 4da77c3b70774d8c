import type { Page } from 'playwright';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type {
  EngineBenchApi,
  Generation,
  ToolCost,
  WatchedGeneration,
} from '../browser/engine/engine-bench-api.js';
import { BenchUnavailable, withBenchPage } from '../support/bench-page.js';
import { checked, info, skipped, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';

const RUNS = 5;
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
 * `wllamaBackend` vs wllama's own `createChatCompletion` loop (same model bytes, prompt and
 * greedy sampling, so the same tokens), runs alternated; the longest main-thread task while
 * generating; the prompt cost of the constrained-tools instructions for 1, 5 and 10 tools
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

async function measure(page: Page): Promise<Figure[]> {
  await page.waitForFunction(() => window.engineBench !== undefined);
  const loads = await page.evaluate(() => (window.engineBench as EngineBenchApi).load());
  // Warm-ups: the first generation of each path pays for lazy modules and the engine's first batch.
  await page.evaluate((max) => (window.engineBench as EngineBenchApi).raw(max), 16);
  await page.evaluate((max) => (window.engineBench as EngineBenchApi).client(max), 16);
  const raw: WatchedGeneration[] = [];
  const ours: WatchedGeneration[] = [];
  for (let run = 0; run < RUNS; run++) {
    raw.push(
      await page.evaluate((max) => (window.engineBench as EngineBenchApi).raw(max), MAX_TOKENS),
    );
    ours.push(
      await page.evaluate((max) => (window.engineBench as EngineBenchApi).client(max), MAX_TOKENS),
    );
  }
  const tokensPerSecond = (runs: readonly Generation[]) =>
    median(runs.map((run) => run.tokens / (run.totalMs / 1000)));
  const rawRate = tokensPerSecond(raw);
  const ourRate = tokensPerSecond(ours);
  const tokens = median(ours.map((run) => run.tokens));
  const ttftOverhead =
    median(ours.map((run) => run.firstTokenMs)) - median(raw.map((run) => run.firstTokenMs));
  const longest = Math.max(...ours.map((run) => run.longestTaskMs));
  const costs = await page.evaluate(
    (counts) => (window.engineBench as EngineBenchApi).toolPromptTokens(counts),
    TOOL_COUNTS,
  );
  return [
    info({
      id: 'engine.load',
      label: 'wllama: load the tiny model (compile 10 MB wasm + load)',
      value: loads.backendLoadMs,
      unit: 'ms',
      note: `through wllamaBackend.load(); wllama directly: ${loads.rawLoadMs.toFixed(0)} ms`,
    }),
    info({
      id: 'engine.tokens.client',
      label: 'wllama: tokens/s through Client.run',
      value: ourRate,
      unit: 'tok/s',
      note: `median of ${RUNS}, ${tokens} tokens each (max ${MAX_TOKENS}), greedy; wllama's own loop: ${rawRate.toFixed(0)} tok/s`,
    }),
    checked({
      id: 'engine.tokens.ratio',
      label: "wllama: its own loop's tokens/s ÷ Client.run's",
      value: rawRate / ourRate,
      unit: '×',
      target: { op: '<=', limit: 1 / 0.95 },
      note: 'target: Client.run ≥ 0.95× wllama’s own createChatCompletion loop, i.e. this ≤ 1.053',
    }),
    checked({
      id: 'engine.ttft.overhead',
      label: 'wllama: time-to-first-token overhead of Client.run',
      value: ttftOverhead,
      unit: 'ms',
      target: { op: '<=', limit: 5 },
      note: `median first text event minus median first content chunk of wllama's own stream (${median(raw.map((run) => run.firstTokenMs)).toFixed(1)} ms)`,
    }),
    checked({
      id: 'engine.longtask',
      label: 'wllama: longest main-thread task while generating',
      value: longest,
      unit: 'ms',
      target: { op: '<', limit: 50 },
      note: `PerformanceObserver longtask (reports tasks ≥ 50 ms; 0 = none) over ${RUNS} Client.run generations: ${ours.reduce((sum, run) => sum + run.longTasks, 0)} long tasks; during wllama's own loop: ${raw.reduce((sum, run) => sum + run.longTasks, 0)}, longest ${Math.max(...raw.map((run) => run.longestTaskMs)).toFixed(0)} ms`,
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
