import { benchCacheDir } from '../support/bench-page.js';
import { consumerBundle, type Bundler, type ConsumerBundle } from '../support/consumer-bundle.js';
import { checked, info, type Figure, type Target } from '../support/figure.js';

/** An app entry under bench/entries/, with the budget its first load must meet. */
interface SizeCase {
  name: string;
  entry: string;
  label: string;
  /** KB, gzip -9, every dependency bundled. */
  firstLoad?: Target;
  /** KB, with every chunk loaded by `import()` too. */
  total?: Target;
  note?: string;
}

export const SIZE_CASES: readonly SizeCase[] = [
  {
    name: 'query',
    entry: 'bench/entries/query-only.ts',
    label: 'query() only',
    firstLoad: { op: '<=', limit: 12 },
  },
  {
    name: 'client-json-tool',
    entry: 'bench/entries/client-json-tool.ts',
    label: 'Client + a JSON-Schema tool',
    firstLoad: { op: '<=', limit: 25 },
  },
  {
    name: 'client-zod-tool',
    entry: 'bench/entries/client-zod-tool.ts',
    label: 'Client + a zod tool',
    note: "includes the app's own zod classic",
  },
  {
    name: 'client-history',
    entry: 'bench/entries/client-history.ts',
    label: 'Client + indexedDBHistory',
  },
  {
    name: 'chat-page',
    entry: 'bench/entries/chat-page.ts',
    label: '<agent-chat> page (components + Client, tool, indexedDBHistory)',
    firstLoad: { op: '<=', limit: 50 },
    total: { op: '<=', limit: 75 },
  },
  {
    name: 'worker',
    entry: 'bench/entries/worker-entry.ts',
    label: 'open-agent/worker (exposeTools)',
  },
  {
    name: 'mcp',
    entry: 'bench/entries/mcp-client.ts',
    label: 'open-agent/mcp (Client + connectMcp)',
    note: 'the MCP SDK, zod and ajv load by import() when connectMcp runs',
  },
  { name: 'openai', entry: 'bench/entries/openai-sdk.ts', label: 'openai SDK (for comparison)' },
];

const BUNDLERS: readonly Bundler[] = ['esbuild', 'vite'];

/** Where {@link bundleSizes} leaves each bundle, for the cold-import figures to load. */
export function bundleDir(name: string, bundler: Bundler): string {
  return benchCacheDir(`bundles/${bundler}/${name}`);
}

/**
 * Figure 2: what a page downloads for each way of using open-agent, measured as users measure
 * it: a consumer app built with esbuild and with Vite 8 (Rolldown) — browser ESM, minified,
 * tree-shaken, every dependency bundled (zod, lit… no externals), gzip -9 per file —
 * with the openai SDK built the same way beside it.
 */
export async function bundleSizes(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const openai = new Map<Bundler, ConsumerBundle>();
  for (const bundler of BUNDLERS) {
    openai.set(
      bundler,
      await consumerBundle('bench/entries/openai-sdk.ts', bundler, bundleDir('openai', bundler)),
    );
  }
  for (const sizeCase of SIZE_CASES) {
    for (const bundler of BUNDLERS) {
      const bundle =
        sizeCase.name === 'openai'
          ? openai.get(bundler)
          : await consumerBundle(sizeCase.entry, bundler, bundleDir(sizeCase.name, bundler));
      if (!bundle) continue;
      figures.push(...describe(sizeCase, bundle, openai.get(bundler)));
    }
  }
  return figures;
}

function describe(
  sizeCase: SizeCase,
  bundle: ConsumerBundle,
  openai: ConsumerBundle | undefined,
): Figure[] {
  const kb = (bytes: number) => bytes / 1024;
  const first = kb(bundle.firstLoad.gzipped);
  const total = kb(bundle.total.gzipped);
  const lazy = total - first;
  const versus =
    openai && sizeCase.name !== 'openai'
      ? `; ${(first / kb(openai.firstLoad.gzipped)).toFixed(2)}× the openai SDK (${kb(openai.firstLoad.gzipped).toFixed(1)} KB)`
      : '';
  const largest = bundle.byPackage
    .slice(0, 5)
    .map(([name, bytes]) => `${name} ${kb(bytes).toFixed(1)}`)
    .join(', ');
  const note = [
    `${kb(bundle.firstLoad.minified).toFixed(1)} KB minified${versus}`,
    lazy > 0.05 ? `+${lazy.toFixed(1)} KB loaded later by import()` : '',
    sizeCase.note ?? '',
    `largest before gzip (KB): ${largest}`,
  ]
    .filter(Boolean)
    .join('; ');
  const id = `size.${sizeCase.name}.${bundle.bundler}`;
  const label = `size: ${sizeCase.label}, ${bundler(bundle)}, first load`;
  const figures: Figure[] = [
    sizeCase.firstLoad
      ? checked({ id, label, value: first, unit: 'KB', target: sizeCase.firstLoad, note })
      : info({ id, label, value: first, unit: 'KB', note }),
  ];
  if (sizeCase.total) {
    // DOMPurify loads only in browsers without the HTML Sanitizer API (Safari, older others).
    const purify = bundle.lazyChunks.filter(
      (chunk) => chunk.packages.length === 1 && chunk.packages[0] === 'dompurify',
    );
    const withoutPurify = total - kb(purify.reduce((sum, chunk) => sum + chunk.gzipped, 0));
    const tool = bundler(bundle);
    figures.push(
      checked({
        id: `${id}.total`,
        label: `size: ${sizeCase.label}, ${tool}, with what loads later (Sanitizer API browsers)`,
        value: withoutPurify,
        unit: 'KB',
        target: sizeCase.total,
        note: 'Chrome 146+, Firefox 148+: the browser sanitises; the markdown renderer and the rest load when the first answer shows',
      }),
      info({
        id: `${id}.total-fallback`,
        label: `size: ${sizeCase.label}, ${tool}, with what loads later (DOMPurify fallback)`,
        value: total,
        unit: 'KB',
        note: 'browsers without the HTML Sanitizer API (Safari) also load DOMPurify',
      }),
    );
    if (sizeCase.name === 'chat-page') figures.splice(1, 0, typicalSession(sizeCase, bundle, id));
  }
  return figures;
}

/**
 * The chunks a typical chat session loads after the first paint, in a browser with the HTML
 * Sanitizer API: an answer in markdown with a code block in one language, a tool with a flat
 * JSON Schema (the kind most tools have: no validator to load) that runs once (its card, the row
 * under the answer), against a local server whose
 * context window is asked for. Not: branches, images, Ollama's native API, error fixes,
 * structured answers, DOMPurify, the other 17 grammars, the JSON Schema validator.
 */
const TYPICAL_SESSION = [
  /components\/markdown\/render-markdown\.ts$/,
  /components\/markdown\/highlight-code\.ts$/,
  /@speed-highlight\/core\/dist\/languages\/js\.js$/,
  /components\/tool-card\/tool-card\.ts$/,
  /components\/chat\/message-row\.ts$/,
  /src\/context\/context-manager\.ts$/,
  /src\/stream\/dialects\/index\.ts$/,
  /src\/loop\/tool-execution\.ts$/,
];

function typicalSession(sizeCase: SizeCase, bundle: ConsumerBundle, id: string): Figure {
  const session = bundle.loadedWith(TYPICAL_SESSION);
  if (session.missing.length > 0) {
    throw new Error(
      `${sizeCase.name} (${bundle.bundler}): no chunk holds ${session.missing.join(', ')}: update TYPICAL_SESSION`,
    );
  }
  return info({
    id: `${id}.typical-session`,
    label: `size: ${sizeCase.label}, ${bundler(bundle)}, after a typical session`,
    value: session.gzipped / 1024,
    unit: 'KB',
    note: 'first load + the markdown renderer, one code language, a tool card, a run of a tool with a flat JSON Schema (simple-typed properties, enums), the message row, the context window (Sanitizer API browsers); not branches, images, other grammars, nor the JSON Schema validator (~7 KB) that a tool with nested, array or bounded input loads',
  });
}

function bundler(bundle: ConsumerBundle): string {
  return bundle.bundler === 'vite' ? 'Vite 8' : 'esbuild';
}
