// One cell of the `run` section in a fresh Node process (bench/node/client-run.ts bundles this
// file and spawns it): `node cell.mjs <loop> <scenario> <baseURL> <mode> [repeat]`. Prints one
// JSON line on stdout. Modes:
// - `time`: one checked run, then `repeat` timed runs: wall and CPU (process.cpuUsage) each.
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

const [loopName = '', scenarioName = '', baseURL = '', mode = 'time', repeatText = '5'] =
  process.argv.slice(2);
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

if (mode === 'time') {
  check(await loop({ baseURL, scenario }));
  const wallMs: number[] = [];
  const cpuMs: number[] = [];
  for (let round = 0; round < Number(repeatText); round++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const outcome = await loop({ baseURL, scenario });
    wallMs.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
    check(outcome);
  }
  console.log(JSON.stringify({ wallMs, cpuMs }));
} else if (mode === 'rss') {
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
