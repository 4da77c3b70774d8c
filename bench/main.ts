import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { skipped, type Figure } from './support/figure.js';
import { formatNotes, formatTable } from './support/report.js';
import { browserChat } from './node/browser-chat.js';
import { browserChatCalls } from './node/browser-chat-calls.js';
import { browserCore } from './node/browser-core.js';
import { browserEngine } from './node/browser-engine.js';
import { bundleSizes } from './node/bundle-sizes.js';
import { coldImport } from './node/cold-import.js';
import { doctorFigures } from './node/doctor.js';
import { contextFitting } from './node/context-fitting.js';
import { summarizeFigures } from './node/summarize-compaction.js';
import { searchFigures } from './node/history-search.js';
import { clientRun } from './node/client-run.js';
import { loopOverhead } from './node/loop-overhead.js';
import { noBuildLoad } from './node/no-build-load.js';
import { sandboxFigures } from './node/sandbox.js';
import { streamThroughput } from './node/stream-throughput.js';
import { slowServer } from './node/slow-server.js';

/** Relative to the repository root, which bench/run.mjs makes the working directory. */
const RESULTS_DIR = 'bench/results';

/** A group of figures `--only` can select. */
interface Section {
  name: string;
  run: (options: SectionOptions) => Promise<Figure[]>;
}

/** Switches from the command line that a section may read. */
export interface SectionOptions {
  /** `--node-only`: skip what needs Chromium where a section has a Node part of its own (`run`). */
  nodeOnly: boolean;
  /** `--against=REV`: the `run` section compares this tree with git revision REV, and nothing else. */
  against?: string | undefined;
}

const SECTIONS: Section[] = [
  { name: 'stream', run: streamThroughput },
  { name: 'size', run: bundleSizes },
  { name: 'no-build', run: noBuildLoad },
  { name: 'import', run: coldImport },
  { name: 'loop', run: loopOverhead },
  { name: 'context', run: contextFitting },
  { name: 'summarize', run: summarizeFigures },
  { name: 'search', run: searchFigures },
  { name: 'browser', run: browserCore },
  { name: 'chat', run: browserChat },
  { name: 'calls', run: browserChatCalls },
  { name: 'sandbox', run: sandboxFigures },
  { name: 'run', run: clientRun },
  { name: 'engine', run: browserEngine },
  { name: 'doctor', run: doctorFigures },
  { name: 'slow', run: slowServer },
];

/**
 * Runs the benchmark sections (all, or those named by `--only=a,b`; `--node-only` leaves out the
 * `run` section's Chromium pages), prints the table and
 * writes bench/results/latest.json. Returns the process exit code: 0 unless a section
 * crashed — a MISS is a figure to act on, not a failure of the run.
 */
export async function main(args: readonly string[]): Promise<number> {
  const only = args
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const options: SectionOptions = {
    nodeOnly: args.includes('--node-only'),
    against: args.find((arg) => arg.startsWith('--against='))?.slice('--against='.length),
  };
  const figures: Figure[] = [];
  let crashed = false;
  const load = loadavg()[0] ?? 0;
  if (load > cpus().length / 2) {
    console.log(
      `bench: load average ${load.toFixed(1)} on ${cpus().length} cores — other work is running; expect noisy figures`,
    );
  }
  const started = performance.now();
  for (const section of SECTIONS) {
    if (only && !only.includes(section.name)) continue;
    const sectionStart = performance.now();
    process.stdout.write(`bench: ${section.name}…`);
    try {
      figures.push(...(await section.run(options)));
      process.stdout.write(` ${((performance.now() - sectionStart) / 1000).toFixed(1)} s\n`);
    } catch (error) {
      crashed = true;
      process.stdout.write(' failed\n');
      console.error(error);
      const reason = String(error).split('\n')[0] ?? '';
      figures.push(
        skipped({
          id: `${section.name}.crashed`,
          label: `${section.name}: section failed`,
          unit: '',
          note: reason,
        }),
      );
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n${formatTable(figures)}\n\nNotes:\n${formatNotes(figures)}\n`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAverage: load,
    seconds,
    figures,
  };
  writeFileSync(join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const misses = figures.filter((figure) => figure.status === 'MISS').length;
  console.log(
    `bench: ${figures.length} figures, ${misses} MISS, in ${seconds.toFixed(0)} s; JSON in bench/results/latest.json`,
  );
  return crashed ? 1 : 0;
}
