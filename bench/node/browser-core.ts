import type { CoreBenchApi } from '../browser/core/core-bench-api.js';
import { BenchUnavailable, withBenchPage } from '../support/bench-page.js';
import { checked, info, skipped, type Figure } from '../support/figure.js';
import { median, quantile } from '../support/stats.js';

const CALLS = 1_000;
const APPENDS = 50;
const LOADS = 5;

/** Figure 4: worker-tool round trip and IndexedDB history, in Chromium. */
export async function browserCore(): Promise<Figure[]> {
  try {
    return await withBenchPage('bench/browser/core', async (page) => {
      await page.waitForFunction(() => window.coreBench !== undefined);
      const figures: Figure[] = [];
      const trip = await page.evaluate(
        (calls) => (window.coreBench as CoreBenchApi).workerRoundTrip(calls),
        CALLS,
      );
      const precision = trip.crossOriginIsolated
        ? '5 µs timers'
        : '100 µs timers (page not cross-origin isolated)';
      figures.push(
        checked({
          id: 'worker.round-trip.median',
          label: 'worker tool: round trip, median',
          value: median(trip.toolMs),
          unit: 'ms',
          target: { op: '<', limit: 1 },
          note: `workerTool().execute → exposeTools handler returning its input; ${CALLS} sequential calls after 50 warm-ups, ${precision}`,
        }),
        info({
          id: 'worker.round-trip.p99',
          label: 'worker tool: round trip, p99',
          value: quantile(trip.toolMs, 0.99),
          unit: 'ms',
        }),
        info({
          id: 'worker.raw.median',
          label: 'worker floor: bare postMessage echo, median',
          value: median(trip.rawMs),
          unit: 'ms',
          note: `p99 ${quantile(trip.rawMs, 0.99).toFixed(3)} ms`,
        }),
      );
      const idb = await page.evaluate(
        (options) => (window.coreBench as CoreBenchApi).indexedDB(options),
        { appends: APPENDS, loads: LOADS },
      );
      if (idb.loadedCount !== 10_000)
        throw new Error(`indexedDBHistory loaded ${idb.loadedCount} of 10000 messages`);
      const at100 = median(idb.appendAt100Ms);
      const at10k = median(idb.appendAt10kMs);
      figures.push(
        info({
          id: 'idb.append.100',
          label: 'IndexedDB: append 1 message at ~100',
          value: at100,
          unit: 'ms',
          note: `indexedDBHistory().append(id, [message]), median of ${APPENDS}`,
        }),
        info({
          id: 'idb.append.10k',
          label: 'IndexedDB: append 1 message at ~10,000',
          value: at10k,
          unit: 'ms',
        }),
        checked({
          id: 'idb.append.ratio',
          label: 'IndexedDB: append at 10,000 / at 100',
          value: at10k / at100,
          unit: '×',
          target: { op: '<', limit: 1.5 },
        }),
        checked({
          id: 'idb.load.10k',
          label: 'IndexedDB: load 10,000-message conversation',
          value: median(idb.loadMs),
          unit: 'ms',
          target: { op: '<', limit: 150 },
          note: `median of ${LOADS} loads, each from a fresh indexedDBHistory instance (max ${Math.max(...idb.loadMs).toFixed(0)} ms); writing the 10,000 in batches of 1,000 took ${idb.fillMs.toFixed(0)} ms`,
        }),
      );
      return figures;
    });
  } catch (error) {
    if (!(error instanceof BenchUnavailable)) throw error;
    return [
      skipped({
        id: 'worker.round-trip.median',
        label: 'worker tool and IndexedDB figures',
        unit: '',
        note: error.message,
      }),
    ];
  }
}
