import { cpus, loadavg } from 'node:os';
import type { RunBenchApi } from '../browser/run/run-bench-api.js';
import type { RunLoopName } from '../browser/run/run-loops.js';
import { scenarioName, type Scenario } from '../browser/run/run-scenarios.js';
import { benchCacheDir } from '../support/bench-page.js';
import { chromiumPath, launchChromium } from '../support/chromium.js';
import { serveFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import type { SectionOptions } from '../main.js';
import { checked, info, skipped, type Figure } from '../support/figure.js';
import { buildPage } from '../support/page-build.js';
import { median, pairedRatio } from '../support/stats.js';
import { againstFigures } from './client-run-against.js';
import { constructionFigures, memoryFigures } from './client-run-process.js';
import { buildNodeCell, pairedCell, type LoopSamples } from './run-cell.js';

const SCENARIOS: Scenario[] = [
  { kind: 'text', deltas: 20_000 },
  { kind: 'tool-loop', rounds: 50 },
  { kind: 'parallel', calls: 20 },
];
/**
 * What each process (page) pairs with the floor: one contender alone. Run together in one
 * process, the loops slowed one another: on tool-loop-50, a new Client per run measured 1.30×
 * the floor beside the floor alone and 1.95× beside the reused Client too (our code running
 * twice per round got hot sooner, and V8 compiled more of it inside the timed runs). Apart,
 * each is timed as an app runs it, the peer method of issue 31 (a fresh process per cell).
 */
const CONTENDERS: RunLoopName[] = ['open-agent', 'open-agent-new', 'openai'];
/**
 * In Node only, beside the contenders: our transport and stream reader alone (the loop by
 * hand), which says how much of `Client.run`'s ratio is the agent loop above them.
 */
const NODE_CONTENDERS: RunLoopName[] = [...CONTENDERS, 'transport'];
/** Fresh pages per scenario and contender, each interleaving it with the floor; and processes for the other Node figures. */
const PROCESSES = 3;
/**
 * Fresh Node processes per scenario and contender. Six, not three: when V8 compiles a hot
 * function (the floor's loop, our model step; 50-200 ms of compiler time each) differs from
 * process to process, and with three the tool-loop-50 median moved by ±0.3× between runs.
 */
const NODE_PROCESSES = 6;
/** Rounds in each process (page), every loop once per round: more for the short scenario, whose runs take a few ms. */
const ROUNDS: Record<Scenario['kind'], number> = { text: 5, 'tool-loop': 6, parallel: 20 };
const PAGE_ROOT = 'bench/browser/run';

type CellSamples = Record<string, LoopSamples>; // key: loop name (the floor and one contender)
type AllSamples = Map<string, CellSamples>; // key: `${scenario} ${contender}`

/**
 * Figure 6: `Client.run` end to end (autoExecuteTools, a JSON-Schema tool, events consumed as a
 * UI would) — on one Client reused across runs, and on a new Client (and tool) per run — against
 * a fake OpenAI-compatible server on loopback that writes each response in one write, beside the
 * floor (fetch + TextDecoder + split lines + JSON.parse, tools by hand) and the `openai` SDK by
 * hand, in the same run. Paired: per scenario, fresh Node processes (CPU time) and fresh
 * Chromium pages (wall time) that each run every loop once per round, in a rotated order; the
 * figure is the median over all rounds of ours / the floor's run of the same round, with the
 * quartiles of those ratios beside it. Each result checked before it counts.
 */
export async function clientRun(options: SectionOptions): Promise<Figure[]> {
  if (options.against !== undefined) {
    const server = await serveFakeOpenAI();
    try {
      const scenarios = SCENARIOS.map((scenario) => ({
        name: scenarioName(scenario),
        rounds: ROUNDS[scenario.kind],
      }));
      return await againstFigures(options.against, scenarios, `${server.origin}/v1`);
    } finally {
      await server.close();
    }
  }
  const cell = await buildNodeCell();
  const pageDir = benchCacheDir(PAGE_ROOT.replaceAll('/', '-'));
  await buildPage(PAGE_ROOT, pageDir);
  const server = await serveFakeOpenAI(pageDir);
  try {
    const figures: Figure[] = [];
    const loadBefore = loadAverage();
    const node = await nodeSamples(cell, server);
    figures.push(...ratioFigures('node', node, `${loadBefore}–${loadAverage()}`));
    const baseURL = `${server.origin}/v1`;
    figures.push(...(await constructionFigures(cell, baseURL, PROCESSES)));
    const text = scenarioName(SCENARIOS[0] as Scenario);
    figures.push(...(await memoryFigures(cell, baseURL, text, PROCESSES)));
    const executablePath = chromiumPath();
    if (options.nodeOnly) {
      figures.push(
        skipped({
          id: 'run.chromium',
          label: 'Client.run in Chromium',
          unit: '×',
          note: '--node-only',
        }),
      );
    } else if (executablePath === undefined) {
      figures.push(
        skipped({
          id: 'run.chromium',
          label: 'Client.run in Chromium',
          unit: '×',
          note: 'no Chromium at /usr/bin/chromium (set CHROMIUM_PATH)',
        }),
      );
    } else {
      const load = loadAverage();
      const samples = await chromiumSamples(executablePath, server);
      figures.push(...ratioFigures('chromium', samples, `${load}–${loadAverage()}`));
    }
    return figures;
  } finally {
    await server.close();
  }
}

/** Appends one process's (page's) samples to its cell's (`${scenario} ${contender}`). */
function pool(all: AllSamples, key: string, part: Record<string, Partial<LoopSamples>>): void {
  const entry = all.get(key) ?? {};
  for (const [loop, samples] of Object.entries(part)) {
    const into = (entry[loop] ??= { wallMs: [], cpuMs: [] });
    into.wallMs.push(...(samples.wallMs ?? []));
    into.cpuMs.push(...(samples.cpuMs ?? []).map(Number));
  }
  all.set(key, entry);
}

async function nodeSamples(cell: string, server: FakeOpenAIServer): Promise<AllSamples> {
  const all: AllSamples = new Map();
  for (let index = 0; index < NODE_PROCESSES; index++) {
    for (const scenario of SCENARIOS) {
      const name = scenarioName(scenario);
      for (const contender of NODE_CONTENDERS) {
        const part = await pairedCell(cell, name, `${server.origin}/v1`, ROUNDS[scenario.kind], [
          'floor',
          contender,
        ]);
        pool(all, `${name} ${contender}`, part);
      }
    }
  }
  return all;
}

async function chromiumSamples(
  executablePath: string,
  server: FakeOpenAIServer,
): Promise<AllSamples> {
  // --expose-gc: the page runs a minor GC before each timed run, as the Node cell does.
  const browser = await launchChromium(executablePath, ['--js-flags=--expose-gc']);
  const all: AllSamples = new Map();
  try {
    for (let index = 0; index < PROCESSES; index++) {
      for (const scenario of SCENARIOS) {
        for (const contender of CONTENDERS) {
          const samples = await chromiumCell(browser.context, server, scenario, contender);
          pool(all, `${scenarioName(scenario)} ${contender}`, samples);
        }
      }
    }
  } finally {
    await browser.close();
  }
  return all;
}

/** One fresh page that interleaves `contender` with the floor on `scenario`. */
async function chromiumCell(
  context: Awaited<ReturnType<typeof launchChromium>>['context'],
  server: FakeOpenAIServer,
  scenario: Scenario,
  contender: RunLoopName,
): Promise<Record<string, Partial<LoopSamples>>> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(`${server.origin}/index.html`);
    await page.waitForFunction(() => window.runBench !== undefined);
    const options = {
      loops: ['floor', contender],
      scenario: scenarioName(scenario),
      rounds: ROUNDS[scenario.kind],
    };
    const result = await page.evaluate(
      (cellOptions) => (window.runBench as RunBenchApi).paired(cellOptions),
      options,
    );
    if (errors.length > 0) throw new Error(`page errors in ${PAGE_ROOT}: ${errors.join('; ')}`);
    return result;
  } finally {
    await page.close();
  }
}

/** The 1-minute load average, to print beside figures a busy machine moves. */
function loadAverage(): string {
  return (loadavg()[0] ?? 0).toFixed(1);
}

function ratioFigures(where: 'node' | 'chromium', all: AllSamples, load: string): Figure[] {
  const figures: Figure[] = [];
  const measure = where === 'node' ? 'cpuMs' : 'wallMs';
  const what = where === 'node' ? 'CPU time' : 'wall time';
  const host = where === 'node' ? 'Node' : 'Chromium';
  const ways = [
    { loop: 'open-agent', id: 'ratio', label: 'one Client reused' },
    { loop: 'open-agent-new', id: 'new-client-ratio', label: 'a new Client per run' },
  ] as const;
  for (const scenario of SCENARIOS) {
    const name = scenarioName(scenario);
    /** The contender's samples and the floor's from the same processes (pages). */
    const cell = (loop: RunLoopName): { floor: LoopSamples; ours: LoopSamples } => {
      const samples = all.get(`${name} ${loop}`);
      const floor = samples?.floor;
      const ours = samples?.[loop];
      if (!floor || !ours) throw new Error(`run: missing cell ${loop} ${name}`);
      return { floor, ours };
    };
    const how = (floor: LoopSamples): string =>
      `median over ${floor[measure].length} rounds (${where === 'node' ? `${NODE_PROCESSES} fresh processes` : `${PROCESSES} fresh pages`} of this loop and the floor, interleaved) of ours / the floor's run of the same round (load average ${load} on ${cpus().length} cores); quartiles`;
    for (const way of ways) {
      const { floor, ours } = cell(way.loop);
      const ratio = pairedRatio(ours[measure], floor[measure]);
      const wall =
        where === 'node'
          ? `; wall ${pairedRatio(ours.wallMs, floor.wallMs).median.toFixed(2)}×`
          : '';
      figures.push(
        checked({
          id: `run.${where}.${name}.${way.id}`,
          label: `Client.run ${name}, ${host} ${what}, ${way.label}: open-agent / floor`,
          value: ratio.median,
          unit: '×',
          target: { op: '<=', limit: 1.3 },
          note: `${how(floor)} ${ratio.low.toFixed(2)}–${ratio.high.toFixed(2)}×; medians: floor ${median(floor[measure]).toFixed(1)} ms, open-agent ${median(ours[measure]).toFixed(1)} ms${wall}`,
        }),
      );
    }
    const { floor, ours: sdk } = cell('openai');
    const sdkRatio = pairedRatio(sdk[measure], floor[measure]);
    figures.push(
      info({
        id: `run.${where}.${name}.openai-ratio`,
        label: `Client.run ${name}, ${host} ${what}: openai SDK hand loop / floor`,
        value: sdkRatio.median,
        unit: '×',
        note: `quartiles ${sdkRatio.low.toFixed(2)}–${sdkRatio.high.toFixed(2)}×; median openai SDK ${median(sdk[measure]).toFixed(1)} ms${where === 'node' ? `; wall ${pairedRatio(sdk.wallMs, floor.wallMs).median.toFixed(2)}×` : ''}`,
      }),
    );
    if (where === 'node') {
      const { floor: under, ours: transport } = cell('transport');
      const transportRatio = pairedRatio(transport.cpuMs, under.cpuMs);
      figures.push(
        info({
          id: `run.node.${name}.transport-ratio`,
          label: `Client.run ${name}, Node CPU time: our transport and stream reader alone, the loop by hand / floor`,
          value: transportRatio.median,
          unit: '×',
          note: `not Client.run: createFetchBackend + the aggregator the loop uses, the conversation and the tool by hand as the floor keeps them; the rest of Client.run's ratio is the agent loop; quartiles ${transportRatio.low.toFixed(2)}–${transportRatio.high.toFixed(2)}×`,
        }),
      );
    }
  }
  return figures;
}
