import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as esbuild, type Plugin } from 'esbuild';
import { build as viteBuild, type Rolldown } from 'vite';
import { componentsSideEffects } from './components-side-effects.js';

/** A bundler a consumer app builds with. */
export type Bundler = 'esbuild' | 'vite';

/** Bytes of a set of files: minified, and gzip -9 file by file (as a server sends them). */
export interface Bytes {
  minified: number;
  gzipped: number;
}

/** One app entry bundled for the browser, every dependency included. */
export interface ConsumerBundle {
  bundler: Bundler;
  /** The entry chunk and every chunk it imports statically: what loads before the app runs. */
  firstLoad: Bytes;
  /** How many files that first load is. */
  firstLoadFiles: number;
  /** Everything emitted, chunks loaded by `import()` included. */
  total: Bytes;
  /** The entry chunk's path under `outDir`, for a page to `import()`. */
  entryFile: string;
  /** Bytes each package contributes to `total` before compression (`src`, `zod`…), largest first. */
  byPackage: [string, number][];
  /** Each chunk loaded later, gzipped, with the packages in it. */
  lazyChunks: { name: string; gzipped: number; packages: string[] }[];
  /**
   * What a page has downloaded once the modules matching `modules` (paths as the bundler names
   * them, e.g. `components/markdown/lazy-markdown.ts`) have loaded: the first load, plus each
   * chunk holding one of them and every chunk those import statically.
   */
  loadedWith(modules: readonly RegExp[]): Bytes & { missing: RegExp[] };
}

interface Chunk {
  name: string;
  code: string;
  isEntry: boolean;
  staticImports: string[];
  inputs: [string, number][];
}

/** What an esbuild app may set otherwise: its code splitting (on by default here), plugins. */
export interface EsbuildSettings {
  splitting?: boolean;
  plugins?: Plugin[];
}

/**
 * Bundles `entry` (relative to the repository root) the way a consumer's production build
 * would — browser ESM, minified, tree-shaken, no externals, code split at `import()` — into
 * `outDir`, and measures it. `esbuildSettings` changes an esbuild build (ignored by Vite).
 */
export async function consumerBundle(
  entry: string,
  bundler: Bundler,
  outDir: string,
  esbuildSettings: EsbuildSettings = {},
): Promise<ConsumerBundle> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const chunks =
    bundler === 'esbuild'
      ? await withEsbuild(entry, outDir, esbuildSettings)
      : await withVite(entry, outDir);
  for (const chunk of chunks) {
    await mkdir(dirname(join(outDir, chunk.name)), { recursive: true });
    await writeFile(join(outDir, chunk.name), chunk.code);
  }
  const entryChunk = chunks.find((chunk) => chunk.isEntry);
  if (!entryChunk) throw new Error(`${bundler} emitted no entry chunk for ${entry}`);
  const byName = new Map(chunks.map((chunk) => [chunk.name, chunk]));
  const first = new Set<Chunk>();
  const visit = (chunk: Chunk | undefined) => {
    if (!chunk || first.has(chunk)) return;
    first.add(chunk);
    for (const name of chunk.staticImports) visit(byName.get(name));
  };
  visit(entryChunk);
  const packages = new Map<string, number>();
  for (const chunk of chunks) {
    for (const [id, bytes] of chunk.inputs)
      packages.set(packageOf(id), (packages.get(packageOf(id)) ?? 0) + bytes);
  }
  const lazyChunks = chunks
    .filter((chunk) => !first.has(chunk))
    .map((chunk) => ({
      name: chunk.name,
      gzipped: bytesOf([chunk]).gzipped,
      packages: [...new Set(chunk.inputs.map(([id]) => packageOf(id)))],
    }));
  const loadedWith = (modules: readonly RegExp[]) => {
    const loaded = new Set(first);
    const add = (chunk: Chunk | undefined) => {
      if (!chunk || loaded.has(chunk)) return;
      loaded.add(chunk);
      for (const name of chunk.staticImports) add(byName.get(name));
    };
    const missing = modules.filter((pattern) => {
      const holders = chunks.filter((chunk) =>
        chunk.inputs.some(([id, bytes]) => bytes > 0 && pattern.test(id)),
      );
      holders.forEach(add);
      return holders.length === 0;
    });
    return { ...bytesOf([...loaded]), missing };
  };
  return {
    bundler,
    lazyChunks,
    loadedWith,
    firstLoad: bytesOf([...first]),
    firstLoadFiles: first.size,
    total: bytesOf(chunks),
    entryFile: entryChunk.name,
    byPackage: [...packages].sort((a, b) => b[1] - a[1]),
  };
}

async function withEsbuild(
  entry: string,
  outDir: string,
  { splitting = true, plugins = [] }: EsbuildSettings,
): Promise<Chunk[]> {
  const result = await esbuild({
    entryPoints: [entry],
    bundle: true,
    splitting,
    plugins,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    treeShaking: true,
    write: false,
    metafile: true,
    outdir: outDir,
    logLevel: 'silent',
  });
  return result.outputFiles
    .filter((file) => file.path.endsWith('.js'))
    .map((file) => {
      const key = relative(process.cwd(), file.path);
      const meta = result.metafile.outputs[key];
      return {
        name: relative(outDir, file.path),
        code: file.text,
        // Chunks of import() targets name an entry point too: the app's entry is the one given.
        isEntry: meta?.entryPoint !== undefined && resolve(meta.entryPoint) === resolve(entry),
        staticImports: (meta?.imports ?? [])
          .filter((item) => item.kind === 'import-statement')
          .map((item) => relative(outDir, resolve(item.path))),
        inputs: Object.entries(meta?.inputs ?? {}).map(([id, input]) => [id, input.bytesInOutput]),
      };
    });
}

async function withVite(entry: string, outDir: string): Promise<Chunk[]> {
  const result = await viteBuild({
    root: process.cwd(),
    configFile: false,
    plugins: [componentsSideEffects()],
    logLevel: 'silent',
    mode: 'production',
    build: {
      write: false,
      outDir,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      // An app build with Vite's app defaults, not library mode (library mode leaves whitespace
      // unminified in ES output). The entries export nothing, as an app's main.ts does, so
      // Rolldown may put modules shared with lazy chunks into the entry chunk
      // (`preserveEntrySignatures: false`, Vite's default for apps) instead of a chunk each.
      rolldownOptions: {
        input: entry,
        output: { entryFileNames: `${basename(entry, '.ts')}.js` },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((output) =>
    output.output.flatMap((item): Chunk[] =>
      item.type === 'chunk'
        ? [
            {
              name: item.fileName,
              code: item.code,
              isEntry: item.isEntry,
              staticImports: item.imports,
              inputs: Object.entries(item.modules).map(([id, module]) => [
                id,
                module.renderedLength,
              ]),
            },
          ]
        : [],
    ),
  );
}

function bytesOf(chunks: readonly Chunk[]): Bytes {
  let minified = 0;
  let gzipped = 0;
  for (const chunk of chunks) {
    minified += Buffer.byteLength(chunk.code);
    gzipped += gzipSync(chunk.code, { level: 9 }).length;
  }
  return { minified, gzipped };
}

function packageOf(id: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (match?.[1] !== undefined) return match[1];
  return /(^|\/)(src|components|bench)\//.exec(id)?.[2] ?? id;
}
