import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import { benchCacheDir, BenchUnavailable } from '../support/bench-page.js';
import { chromiumPath, launchChromium } from '../support/chromium.js';
import { consumerBundle, type Bundler } from '../support/consumer-bundle.js';
import { checked, info, skipped, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';
import { serveStatic } from '../support/static-server.js';
import { SIZE_CASES } from './bundle-sizes.js';
import { lazyLeftOut } from '../support/lazy-left-out.js';
import { sharedThroughOneModule } from '../support/shared-through-one-module.js';

const ROUNDS = 9;
/** The entries whose cold import is measured (every app entry of the size figures), and the one with a target. */
const MEASURED = SIZE_CASES.map((sizeCase) => sizeCase.name);
const TARGETED = 'client-json-tool';
/** Each entry is built by both bundlers a user may have: their chunking differs. */
const BUNDLERS: readonly Bundler[] = ['esbuild', 'vite'];
const BUNDLER_NAMES: Record<Bundler, string> = { esbuild: 'esbuild', vite: 'Vite 8' };
const key = (name: string, bundler: Bundler) => `${name} (${bundler})`;
/** Other esbuild builds of the targeted entry, each timed beside the split build (info figures). */
const VARIANTS: readonly {
  name: string;
  label: string;
  note: string;
  splitting: boolean;
  plugin: (entry: string) => Plugin | undefined | Promise<Plugin>;
}[] = [
  {
    name: 'no-splitting',
    label: "without code splitting (esbuild's default: every lazy part inlined, one file)",
    note: 'a build an app makes when it leaves splitting off',
    splitting: false,
    plugin: () => undefined,
  },
  {
    name: 'two-files',
    label:
      'first load as two files (lazy code importing its first-load helpers through one module: a design experiment)',
    note: 'what lazy code importing every first-load helper through one barrel would give',
    splitting: true,
    plugin: sharedThroughOneModule,
  },
  {
    name: 'one-file',
    label: 'first load as one file (lazy parts left out: not a build an app can make today)',
    note: "what esbuild's split first load would take if lazy code shared no module with it",
    splitting: false,
    plugin: () => lazyLeftOut,
  },
];

/**
 * Figure 2b: cold import in headless Chromium of each entry's bundle, built by esbuild and by Vite
 * 8 as a consumer app (`consumerBundle`: their chunking differs) — a fresh page per
 * round, nothing cached (`no-store`), timed from `import()` to its promise settling (download
 * over loopback, parse, evaluation of every module, elements defined) — beside the openai SDK
 * built the same way, and an empty module as the floor.
 */
export async function coldImport(): Promise<Figure[]> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) {
    return [
      skipped({
        id: 'import.cold',
        label: 'cold import in Chromium',
        unit: '',
        note: new BenchUnavailable('no Chromium at /usr/bin/chromium (set CHROMIUM_PATH)').message,
      }),
    ];
  }
  const root = benchCacheDir('cold-import');
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>cold import</title>');
  await writeFile(join(root, 'empty.js'), 'export {};');
  const urls = new Map<string, string>([['empty', '/empty.js']]);
  for (const name of MEASURED) {
    const sizeCase = SIZE_CASES.find((candidate) => candidate.name === name);
    if (!sizeCase) throw new Error(`no size case "${name}"`);
    for (const bundler of BUNDLERS) {
      const bundle = await consumerBundle(sizeCase.entry, bundler, join(root, bundler, name));
      urls.set(key(name, bundler), `/${bundler}/${name}/${bundle.entryFile}`);
    }
  }
  // Other esbuild builds of the targeted entry (`VARIANTS`): the one apps get without code
  // splitting, and two design experiments showing what the split first load's files cost.
  const targeted = SIZE_CASES.find((candidate) => candidate.name === TARGETED);
  const shipped = new Map<string, string>();
  if (targeted) {
    for (const variant of VARIANTS) {
      const plugin = await variant.plugin(targeted.entry);
      const bundle = await consumerBundle(targeted.entry, 'esbuild', join(root, variant.name), {
        splitting: variant.splitting,
        plugins: plugin ? [plugin] : [],
      });
      urls.set(variant.name, `/${variant.name}/${bundle.entryFile}`);
      const files = bundle.firstLoadFiles;
      shipped.set(
        variant.name,
        `${files} file${files === 1 ? '' : 's'}, ${(bundle.firstLoad.gzipped / 1024).toFixed(1)} KB gzipped`,
      );
    }
  }
  const server = await serveStatic(root);
  const browser = await launchChromium(executablePath);
  const times = new Map<string, number[]>([...urls.keys()].map((name) => [name, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order so no entry always runs first, on a cooler or hotter machine.
      const names = round % 2 === 0 ? [...urls.keys()] : [...urls.keys()].reverse();
      for (const name of names) {
        const page = await browser.context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(`${server.origin}/index.html`);
        const ms = await page.evaluate(
          async (url) => {
            const start = performance.now();
            await import(url);
            return performance.now() - start;
          },
          `${server.origin}${urls.get(name) ?? ''}`,
        );
        await page.close();
        if (errors.length > 0) throw new Error(`importing ${name}: ${errors.join('; ')}`);
        times.get(name)?.push(ms);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const medianOf = (name: string) => median(times.get(name) ?? []);
  const figures: Figure[] = [];
  for (const bundler of BUNDLERS) {
    const openai = medianOf(key('openai', bundler));
    const note = (name: string) =>
      `median of ${ROUNDS} fresh pages (min ${Math.min(...(times.get(name) ?? [])).toFixed(1)} ms); empty module ${medianOf('empty').toFixed(1)} ms; openai SDK ${openai.toFixed(1)} ms`;
    for (const name of MEASURED) {
      const label = `cold import in Chromium: ${SIZE_CASES.find((candidate) => candidate.name === name)?.label ?? name}, ${BUNDLER_NAMES[bundler]}`;
      const id = `import.cold.${bundler}.${name}`;
      const value = medianOf(key(name, bundler));
      figures.push(
        name === TARGETED
          ? checked({
              id,
              label,
              value,
              unit: 'ms',
              target: { op: '<=', limit: 40 },
              note: note(key(name, bundler)),
            })
          : info({ id, label, value, unit: 'ms', note: note(key(name, bundler)) }),
      );
    }
    if (bundler === 'esbuild') {
      for (const variant of VARIANTS.filter(({ name }) => urls.has(name))) {
        figures.push(
          info({
            id: `import.cold.esbuild.${variant.name}`,
            label: `cold import in Chromium: Client + a JSON-Schema tool, esbuild, ${variant.label}`,
            value: medianOf(variant.name),
            unit: 'ms',
            note: `${note(variant.name)}; first load ${shipped.get(variant.name) ?? '?'}; ${variant.note}`,
          }),
        );
      }
    }
    figures.push(
      checked({
        id: `import.cold.${bundler}.ratio`,
        label: `cold import: Client + JSON-Schema tool / openai SDK, ${BUNDLER_NAMES[bundler]}`,
        value: medianOf(key(TARGETED, bundler)) / openai,
        unit: '×',
        target: { op: '<', limit: 1 },
      }),
    );
  }
  return figures;
}
