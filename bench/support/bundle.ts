import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { componentsSideEffects } from './components-side-effects.js';

/** Sizes of one minified ES bundle, in bytes. */
export interface BundleSize {
  minified: number;
  gzipped: number;
  /** Bytes each package (`src`, `components`, `zod`, `lit-html`…) contributes before minifying, largest first. */
  byPackage: [string, number][];
  /** The same per module (repository-relative path), largest first. */
  byModule: [string, number][];
}

/** Options for {@link bundleSize}. */
export interface BundleOptions {
  /** The entry module, relative to the repository root. */
  entry: string;
  /** Bare specifiers left out of the bundle (and everything under them). */
  external?: readonly string[];
}

/**
 * Bundles `entry` for the browser the way a consumer's Vite build would (ESM, minified,
 * browser export conditions, production mode, workers inlined as separate chunks) without
 * writing anything, and returns the size of all JavaScript chunks together, gzipped at
 * level 9 each.
 */
export async function bundleSize(options: BundleOptions): Promise<BundleSize> {
  const external = options.external ?? [];
  const result = await build({
    root: process.cwd(),
    configFile: false,
    plugins: [componentsSideEffects()],
    logLevel: 'silent',
    mode: 'production',
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: { entry: options.entry, formats: ['es'], fileName: 'bundle' },
      rolldownOptions: { external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)) },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  let minified = 0;
  let gzipped = 0;
  const packages = new Map<string, number>();
  const modules = new Map<string, number>();
  for (const output of outputs) {
    for (const item of output.output) {
      const code = item.type === 'chunk' ? item.code : item.fileName.endsWith('.js') ? String(item.source) : undefined;
      if (code === undefined) continue;
      minified += Buffer.byteLength(code);
      gzipped += gzipSync(code, { level: 9 }).length;
      if (item.type !== 'chunk') continue;
      for (const [id, module] of Object.entries(item.modules)) {
        const name = packageOf(id);
        packages.set(name, (packages.get(name) ?? 0) + module.renderedLength);
        const path = id.startsWith(`${process.cwd()}/`) ? id.slice(process.cwd().length + 1) : id;
        modules.set(path, (modules.get(path) ?? 0) + module.renderedLength);
      }
    }
  }
  const largestFirst = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return { minified, gzipped, byPackage: largestFirst(packages), byModule: largestFirst(modules) };
}

function packageOf(id: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (match?.[1] !== undefined) return match[1];
  const local = /\/(src|components|bench)\//.exec(id);
  return local?.[1] ?? id;
}

/** The largest entries of `byPackage` (or `byModule`) as `name 12.3 KB, …` (before minifying). */
export function describeLargest(entries: readonly [string, number][], count = 5): string {
  return entries
    .slice(0, count)
    .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KB`)
    .join(', ');
}
