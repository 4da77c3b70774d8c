// One cell of the `run` section in a fresh Node process (bench/node/client-run.ts bundles this
// file and spawns it): `node cell.mjs <loop> <scenario> <baseURL> <mode> [repeat]`. Prints one
// JSON line on stdout. Modes:
// - `paired` (`node --expose-gc cell.mjs paired <scenario> <baseURL> <rounds> <loop,loop,…>`):
//   every loop run once (checked), then `rounds` rounds in which each loop runs once, in an order
//   rotated every round, a minor GC before each timed run: wall and CPU per loop per round.
// - `rss`: one checked run; the process's peak RSS.
// - `slope`: one checked run under --expose-gc, heap used after a full GC at each tenth of the text.
// - `construct` (`node cell.mjs construct <baseURL>`): `new Client(...)` with ten JSON-Schema tools.
import { readFileSync } from 'node:fs';
import { runLoop } from '../browser/run/run-loops.js';
import { checkOutcome, parseScenario, type RunOutcome } from '../browser/run/run-scenarios.js';
import { timeConstruction } from './client-construct.js';

if (process.argv[2] === 'construct') {
  console.log(JSON.stringify(timeConstruction(process.argv[3] ?? '')));
  process.exit(0);
}

if (process.argv[2] === 'paired') {
  const [, , , name = '', url = '', roundsText = '20', loopsText = ''] = process.argv;
  console.log(JSON.stringify(await paired(name, url, Number(roundsText), loopsText.split(','))));
  process.exit(0);
}

const [loopName = '', scenarioName = '', baseURL = '', mode = 'rss'] = process.argv.slice(2);
const scenario = parseScenario(scenarioName);
if (scenario === undefined) throw new Error(`unknown scenario ${scenarioName}`);
const loop = runLoop(loopName);

function check(outcome: RunOutcome): void {
  const problem = checkOutcome(scenario as NonNullable<typeof scenario>, outcome); // narrowed above; closures lose it
  if (problem !== undefined) throw new Error(`${loopName} ${scenarioName}: ${problem}`);
}

/**
 * The process's own peak RSS. Linux's `VmHWM`, not `process.resourceUsage().maxRSS`: getrusage
 * keeps the high-water mark across fork + exec, so a child reports the bench's own ~200 MB.
 */
function peakRssKb(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const match = /^VmHWM:\s*(\d+) kB/m.exec(status);
  return match ? Number(match[1]) : process.resourceUsage().maxRSS;
}

if (mode === 'rss') {
  check(await loop({ baseURL, scenario }));
  console.log(JSON.stringify({ maxRssKb: peakRssKb() }));
} else if (mode === 'slope') {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('slope mode needs node --expose-gc');
  const total = scenario.kind === 'text' ? scenario.deltas * 4 : 0;
  const samples: { chars: number; heapBytes: number }[] = [];
  let next = total / 10;
  const observe = (chars: number) => {
    if (chars < next) return;
    next += total / 10;
    gc();
    samples.push({ chars, heapBytes: process.memoryUsage().heapUsed });
  };
  check(await loop({ baseURL, scenario, observe }));
  console.log(JSON.stringify({ samples }));
} else {
  throw new Error(`unknown mode ${mode}`);
}

/**
 * The loops of one scenario interleaved in this process: drift (a neighbour's load, the CPU's
 * clock, the JIT) hits them alike, so ratios of runs in the same round are steadier than
 * ratios of separate processes. A minor GC before each run (outside its timing) empties the
 * young generation, so one loop's short-lived garbage is not scavenged in the next one's time. Not
 * a full GC: that throws away JIT state (and made ours 1.6× on text-20000 where minor or none
 * gave 0.8–1.05×); without any GC the floor ran 30 % slower collecting the others' garbage.
 */
async function paired(
  name: string,
  url: string,
  rounds: number,
  loopNames: readonly string[],
): Promise<Record<string, { wallMs: number[]; cpuMs: number[] }>> {
  const pairedScenario = parseScenario(name);
  if (pairedScenario === undefined) throw new Error(`unknown scenario ${name}`);
  const gc = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;
  if (gc === undefined) throw new Error('paired mode needs node --expose-gc');
  const times: Record<string, { wallMs: number[]; cpuMs: number[] }> = {};
  for (const loopName of loopNames) {
    const problem = checkOutcome(
      pairedScenario,
      await runLoop(loopName)({ baseURL: url, scenario: pairedScenario }),
    );
    if (problem !== undefined) throw new Error(`${loopName} ${name}: ${problem}`);
    times[loopName] = { wallMs: [], cpuMs: [] };
  }
  for (let round = 0; round < rounds; round++) {
    const shift = round % loopNames.length;
    for (const loopName of [...loopNames.slice(shift), ...loopNames.slice(0, shift)]) {
      gc({ type: 'minor' });
      const cpu = process.cpuUsage();
      const start = performance.now();
      const outcome = await runLoop(loopName)({ baseURL: url, scenario: pairedScenario });
      const wallMs = performance.now() - start;
      const used = process.cpuUsage(cpu);
      const problem = checkOutcome(pairedScenario, outcome);
      if (problem !== undefined) throw new Error(`${loopName} ${name}: ${problem}`);
      times[loopName]?.wallMs.push(wallMs);
      times[loopName]?.cpuMs.push((used.user + used.system) / 1000);
    }
  }
  return times;
}
