import { resolve } from 'node:path';
import type { Page } from 'playwright';
import { chromiumPath, launchChromium } from './chromium.js';
import { buildPage } from './page-build.js';
import { serveStatic, type StaticServer } from './static-server.js';

/** Where bench builds go: under node_modules, so neither git nor ESLint sees them. */
export function benchCacheDir(name: string): string {
  return resolve('node_modules/.cache/open-agent-bench', name);
}

/** Why a browser section could not run, for a SKIP line. */
export class BenchUnavailable extends Error {
  override readonly name = 'BenchUnavailable';
}

/**
 * Builds the page in `root` (an index.html under bench/browser/), serves it cross-origin
 * isolated (by `serve`, serveStatic unless given), opens it in headless Chromium and hands the page to `measure`. Page errors are
 * collected and thrown after `measure`, so a broken page never yields a quiet figure.
 *
 * @throws BenchUnavailable when Chromium is missing or the page does not build (another
 * part of the tree may be mid-change).
 */
export async function withBenchPage<T>(
  root: string,
  measure: (page: Page) => Promise<T>,
  serve: (dir: string) => Promise<StaticServer> = serveStatic,
): Promise<T> {
  const executablePath = chromiumPath();
  if (executablePath === undefined)
    throw new BenchUnavailable('no Chromium at /usr/bin/chromium (set CHROMIUM_PATH)');
  const outDir = benchCacheDir(root.replaceAll('/', '-'));
  try {
    await buildPage(root, outDir);
  } catch (error) {
    throw new BenchUnavailable(`${root} did not build: ${String(error).split('\n')[0]}`, {
      cause: error,
    });
  }
  const server = await serve(outDir);
  const browser = await launchChromium(executablePath);
  try {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.origin}/index.html`);
    const result = await measure(page);
    if (errors.length > 0) throw new Error(`page errors in ${root}: ${errors.join('; ')}`);
    return result;
  } finally {
    await browser.close();
    await server.close();
  }
}
