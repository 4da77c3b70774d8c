import { gzipSync } from 'node:zlib';
import type { SandboxBenchApi } from '../browser/sandbox/sandbox-bench-api.js';
import { BenchUnavailable, withBenchPage } from '../support/bench-page.js';
import { checked, info, skipped, type Figure } from '../support/figure.js';
import { median, quantile } from '../support/stats.js';

const CALLS = 200;

/**
 * The JavaScript sandbox (`javascriptTool`, QuickJS in a worker) in Chromium: the first run
 * after page load, a later small run's round trip, and what the page downloads for it —
 * recorded from the network, so it is what loads on first use and nothing of the page load.
 */
export async function sandboxFigures(): Promise<Figure[]> {
  try {
    return await withBenchPage('bench/browser/sandbox', async (page) => {
      await page.waitForFunction(() => window.sandboxBench !== undefined);
      const atLoad = new Set<string>();
      const lazy: { url: string; body: Promise<Buffer> }[] = [];
      let loaded = false;
      page.on('response', (response) => {
        const url = response.url();
        if (!loaded) atLoad.add(url);
        else lazy.push({ url, body: response.body() });
      });
      // Responses of the page load are in: anything from here on is the sandbox's.
      await page.waitForLoadState('networkidle');
      loaded = true;
      const firstMs = await page.evaluate(() =>
        (window.sandboxBench as SandboxBenchApi).firstRun(),
      );
      const trips = await page.evaluate(
        (calls) => (window.sandboxBench as SandboxBenchApi).roundTrips(calls),
        CALLS,
      );
      const files = await Promise.all(
        lazy.map(async ({ url, body }) => ({ url, bytes: await body })),
      );
      const sizes = (test: (url: string) => boolean) => {
        const chosen = files.filter(({ url }) => test(url));
        return {
          count: chosen.length,
          raw: chosen.reduce((sum, { bytes }) => sum + bytes.length, 0),
          gzip: chosen.reduce((sum, { bytes }) => sum + gzipSync(bytes, { level: 9 }).length, 0),
        };
      };
      const wasm = sizes((url) => url.endsWith('.wasm'));
      const js = sizes((url) => url.endsWith('.js'));
      const engineAtLoad = [...atLoad].filter((url) =>
        /quickjs|emscripten|sandbox-worker/.test(url),
      );
      if (engineAtLoad.length > 0)
        throw new Error(`the page load fetched sandbox files: ${engineAtLoad.join(', ')}`);
      return [
        info({
          id: 'sandbox.first-run',
          label: 'sandbox: first run after page load',
          value: firstMs,
          unit: 'ms',
          note: 'javascriptTool().execute("1 + 1") right after load: worker spawn + engine fetch and compile (from an ArrayBuffer: the bench server sends no application/wasm) + fresh context + run',
        }),
        checked({
          id: 'sandbox.round-trip.median',
          label: 'sandbox: small snippet round trip, median',
          value: median(trips),
          unit: 'ms',
          target: { op: '<=', limit: 5 },
          note: `${CALLS} sequential runs after 20 warm-ups, each in a fresh QuickJS runtime + context; p99 ${quantile(trips, 0.99).toFixed(2)} ms`,
        }),
        info({
          id: 'sandbox.size.js.gzip',
          label: 'sandbox: worker JavaScript loaded on first use, gzip',
          value: js.gzip / 1024,
          unit: 'KB',
          note: `${js.count} files, ${(js.raw / 1024).toFixed(1)} KB minified; none of it loads with the page`,
        }),
        info({
          id: 'sandbox.size.wasm.gzip',
          label: 'sandbox: QuickJS wasm loaded on first use, gzip',
          value: wasm.gzip / 1024,
          unit: 'KB',
          note: `${(wasm.raw / 1024).toFixed(1)} KB uncompressed`,
        }),
      ];
    });
  } catch (error) {
    if (!(error instanceof BenchUnavailable)) throw error;
    return [
      skipped({
        id: 'sandbox.round-trip.median',
        label: 'sandbox figures',
        unit: '',
        note: error.message,
      }),
    ];
  }
}
