import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { info, type Figure } from '../support/figure.js';
import { pairedRatio } from '../support/stats.js';
import { buildNodeCell, pairedCell } from './run-cell.js';

const run = promisify(execFile);

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
export async function againstFigures(
  rev: string,
  scenarios: readonly { name: string; rounds: number }[],
  baseURL: string,
): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'open-agent-against-'));
  const tree = join(dir, 'tree');
  await run('git', ['worktree', 'add', '--detach', tree, rev]);
  try {
    // The other tree's code with this tree's packages: the lockfile rarely differs between the two.
    await symlink(resolve('node_modules'), join(tree, 'node_modules'), 'dir');
    const here = await buildNodeCell(process.cwd(), 'run-node-cell-here');
    const there = await buildNodeCell(tree, 'run-node-cell-against');
    const figures: Figure[] = [];
    for (const scenario of scenarios) {
      const samples = {
        here: { ours: [] as number[], floor: [] as number[] },
        there: { ours: [] as number[], floor: [] as number[] },
      };
      for (let index = 0; index < PROCESSES; index++) {
        for (const [key, cell] of [
          ['here', here],
          ['there', there],
        ] as const) {
          const part = await pairedCell(cell, scenario.name, baseURL, scenario.rounds, [
            'floor',
            'open-agent-new',
          ]);
          samples[key].floor.push(...(part.floor?.cpuMs ?? []));
          samples[key].ours.push(...(part['open-agent-new']?.cpuMs ?? []));
        }
      }
      const hereRatio = pairedRatio(samples.here.ours, samples.here.floor).median;
      const thereRatio = pairedRatio(samples.there.ours, samples.there.floor).median;
      figures.push(
        info({
          id: `run.against.${scenario.name}`,
          label: `Client.run ${scenario.name}, Node CPU, a new Client per run / floor: this tree − ${rev}`,
          value: hereRatio - thereRatio,
          unit: '×',
          note: `this tree ${hereRatio.toFixed(2)}×, ${rev} ${thereRatio.toFixed(2)}×; medians over ${samples.here.ours.length} rounds each, ${PROCESSES} fresh processes per tree, the trees alternating`,
        }),
      );
    }
    return figures;
  } finally {
    await run('git', ['worktree', 'remove', '--force', tree]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
