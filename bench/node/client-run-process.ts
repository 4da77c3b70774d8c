// The run section's figures measured one fresh process at a time (bench/node/client-run.ts):
// building a Client, peak RSS, heap growth per delta.
import { scenarioName } from '../browser/run/run-scenarios.js';
import { checked, info, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';
import { spawnCell } from './run-cell.js';

/** The answer whose heap growth is measured, in deltas. */
const SLOPE_DELTAS = 200_000;

/** `new Client(...)` with ten JSON-Schema tools, in fresh processes: the first, then later ones. */
export async function constructionFigures(
  cell: string,
  baseURL: string,
  processes: number,
): Promise<Figure[]> {
  const results: { firstMs: number; medianMs: number; constructorOnlyMs: number }[] = [];
  for (let round = 0; round < processes; round++) {
    results.push(
      (await spawnCell(cell, ['construct', baseURL])) as (typeof results)[number], // the cell's `construct` output
    );
  }
  return [
    checked({
      id: 'run.node.new-client-10-tools',
      label: '`new Client(...)` with 10 JSON-Schema tools (tool() calls included), after the first',
      value: median(results.map((result) => result.medianMs)),
      unit: 'ms',
      target: { op: '<', limit: 0.1 },
      note: `5 flat schemas, 5 for the validator, written inline (new objects each time); median over ${processes} fresh processes of the median of 2,000; the first in a process ${median(results.map((result) => result.firstMs)).toFixed(2)} ms; the constructor alone on tools built once ${median(results.map((result) => result.constructorOnlyMs)).toFixed(4)} ms`,
    }),
  ];
}

interface SlopeSample {
  chars: number;
  heapBytes: number;
}

/** Least-squares slope of heap bytes over characters. */
function slope(samples: readonly SlopeSample[]): number {
  const n = samples.length;
  const meanX = samples.reduce((sum, sample) => sum + sample.chars, 0) / n;
  const meanY = samples.reduce((sum, sample) => sum + sample.heapBytes, 0) / n;
  let num = 0;
  let den = 0;
  for (const sample of samples) {
    num += (sample.chars - meanX) * (sample.heapBytes - meanY);
    den += (sample.chars - meanX) ** 2;
  }
  return num / den;
}

/** Peak RSS after one run of `text`, and heap growth over a long answer. */
export async function memoryFigures(
  cell: string,
  baseURL: string,
  text: string,
  processes: number,
): Promise<Figure[]> {
  const rss: Record<'floor' | 'open-agent', number[]> = { floor: [], 'open-agent': [] };
  for (let round = 0; round < processes; round++) {
    for (const loop of ['floor', 'open-agent'] as const) {
      const result = (await spawnCell(cell, [loop, text, baseURL, 'rss'])) as { maxRssKb: number }; // the cell's `rss` output
      rss[loop].push(result.maxRssKb / 1024);
    }
  }
  const floorRss = median(rss.floor);
  const oursRss = median(rss['open-agent']);
  const long = scenarioName({ kind: 'text', deltas: SLOPE_DELTAS });
  const slopes: Record<'floor' | 'open-agent', SlopeSample[]> = { floor: [], 'open-agent': [] };
  for (const loop of ['floor', 'open-agent'] as const) {
    slopes[loop] = (
      (await spawnCell(cell, [loop, long, baseURL, 'slope'], ['--expose-gc'])) as {
        samples: SlopeSample[];
      }
    ).samples; // the cell's `slope` output
  }
  const ours = slopes['open-agent'];
  const half = ours.length >> 1;
  const bytesPerDelta = slope(ours) * 4;
  const linearity = slope(ours.slice(half - 1)) / slope(ours.slice(0, half));
  return [
    checked({
      id: 'run.node.rss.text-20000',
      label: 'Client.run text-20000, Node peak RSS: open-agent − floor',
      value: oursRss - floorRss,
      unit: 'MB',
      target: { op: '<=', limit: 15 },
      note: `peak RSS of a fresh process after one run: floor ${floorRss.toFixed(1)} MB, open-agent ${oursRss.toFixed(1)} MB (its code and zod included); median of ${processes}`,
    }),
    info({
      id: 'run.node.slope.text-200000',
      label: `Client.run text-${SLOPE_DELTAS}, Node heap growth per delta`,
      value: bytesPerDelta,
      unit: 'B',
      note: `least squares over heap used after a full GC at each tenth of the answer; floor ${(slope(slopes.floor) * 4).toFixed(1)} B per delta (4 characters: the UI's text, in UTF-16 where → is)`,
    }),
    info({
      id: 'run.node.slope.linearity',
      label: `Client.run text-${SLOPE_DELTAS}: heap slope, second half / first half`,
      value: linearity,
      unit: '×',
      note: '≈ 1 is linear growth; ≈ 3 would be quadratic',
    }),
  ];
}
