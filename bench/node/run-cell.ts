// The run section's cell runner (bench/node/client-run-cell.ts): bundled for Node, then run in
// fresh processes, each printing one JSON line. Shared by the run figures and `--against`.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { build } from 'vite';
import { benchCacheDir } from '../support/bench-page.js';

const run = promisify(execFile);

/** One loop's samples of a scenario, in round order (round i of every loop ran side by side). */
export interface LoopSamples {
  wallMs: number[];
  cpuMs: number[];
}

/**
 * Bundles the cell runner for Node (the library from src/, openai and zod from node_modules) of
 * the tree at `root` (this one unless `--against` asks for another).
 */
export async function buildNodeCell(
  root = process.cwd(),
  outName = 'run-node-cell',
): Promise<string> {
  const outDir = benchCacheDir(outName);
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    build: {
      ssr: `${root}/bench/node/client-run-cell.ts`,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      rolldownOptions: { output: { entryFileNames: 'cell.mjs' } },
    },
  });
  return `${outDir}/cell.mjs`;
}

export async function spawnCell(
  cell: string,
  args: readonly string[],
  nodeFlags: readonly string[] = [],
): Promise<unknown> {
  const { stdout } = await run(process.execPath, [...nodeFlags, cell, ...args], {
    maxBuffer: 1 << 20,
  });
  const line = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as unknown; // our cell's one JSON line
}

/**
 * The cell's `paired` mode in a fresh `node --expose-gc`: `loops` interleaved for `rounds`
 * rounds on scenario `name`; each loop's samples.
 */
export async function pairedCell(
  cell: string,
  name: string,
  baseURL: string,
  rounds: number,
  loops: readonly string[],
): Promise<Record<string, LoopSamples>> {
  const args = ['paired', name, baseURL, String(rounds), loops.join()];
  return (await spawnCell(cell, args, ['--expose-gc'])) as Record<string, LoopSamples>; // the cell's `paired` output
}
