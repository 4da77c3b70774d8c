import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { info, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';

const run = promisify(execFile);

/** What the A/B needs from the run section (client-run.ts), passed in to keep the import one way. */
export interface AgainstDeps {
  /** Bundles the cell runner of the tree at `root` into `outName`; returns its path. */
  buildCell: (root: string, outName: string) => Promise<string>;
  /** Runs `cell` in a fresh `node --expose-gc`; returns its JSON line. */
  spawnCell: (
    cell: string,
    args: readonly string[],
    nodeFlags?: readonly string[],
  ) => Promise<unknown>;
  /** The scenarios and the rounds each fresh process runs of them. */
  scenarios: readonly { name: string; rounds: number }[];
  baseURL: string;
}

/** Processes of each tree per scenario: the trees alternate, so a neighbour's load hits both alike. */
const PROCESSES = 10;

/**
 * `--against=REV` (with `--only=run`): a new Client per run on this tree and on git revision
 * `REV`, each beside the floor in fresh processes that alternate between the two trees. A change
 * to the runtime moves these figures less than V8 does — when it compiles the floor's loop or our
 * model step (50-200 ms of compiler time) lands in different rounds of different processes — so
 * two trees compare fairly only when measured in the same minutes, process for process. Prints
 * the median ratio of each tree and the difference; sets no target.
 */
export async function againstFigures(rev: string, deps: AgainstDeps): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'open-agent-against-'));
  const tree = join(dir, 'tree');
  await run('git', ['worktree', 'add', '--detach', tree, rev]);
  try {
    // The other tree's code with this tree's packages: the lockfile rarely differs between the two.
    await symlink(resolve('node_modules'), join(tree, 'node_modules'), 'dir');
    const here = await deps.buildCell(process.cwd(), 'run-node-cell-here');
    const there = await deps.buildCell(tree, 'run-node-cell-against');
    const figures: Figure[] = [];
    for (const scenario of deps.scenarios) {
      const ratios: Record<'here' | 'there', number[]> = { here: [], there: [] };
      for (let index = 0; index < PROCESSES; index++) {
        for (const [key, cell] of [
          ['here', here],
          ['there', there],
        ] as const) {
          const args = [
            'paired',
            scenario.name,
            deps.baseURL,
            String(scenario.rounds),
            'floor,open-agent-new',
          ];
          const samples = (await deps.spawnCell(cell, args, ['--expose-gc'])) as Record<
            string,
            { cpuMs: number[] }
          >; // the cell's `paired` output
          const floor = samples.floor?.cpuMs ?? [];
          const ours = samples['open-agent-new']?.cpuMs ?? [];
          ratios[key].push(...ours.map((value, round) => value / (floor[round] ?? Number.NaN)));
        }
      }
      const hereRatio = median(ratios.here);
      const thereRatio = median(ratios.there);
      figures.push(
        info({
          id: `run.against.${scenario.name}`,
          label: `Client.run ${scenario.name}, Node CPU, a new Client per run / floor: this tree − ${rev}`,
          value: hereRatio - thereRatio,
          unit: '×',
          note: `this tree ${hereRatio.toFixed(2)}×, ${rev} ${thereRatio.toFixed(2)}×; medians over ${ratios.here.length} rounds each, ${PROCESSES} fresh processes per tree, the trees alternating`,
        }),
      );
    }
    return figures;
  } finally {
    await run('git', ['worktree', 'remove', '--force', tree]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
