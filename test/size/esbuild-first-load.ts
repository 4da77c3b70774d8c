import { relative, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { lazyLeftOut } from '../../bench/support/lazy-left-out.js';

/** An esbuild build of an app entry and which of its output files load first. */
export interface EsbuildFirstLoad {
  metafile: Metafile;
  /** The entry's own output file. */
  entryKey: string;
  /** The entry's output file and every one it imports statically, transitively. */
  first: ReadonlySet<string>;
  /** The text of each output file, by its key. */
  text: ReadonlyMap<string, string>;
}

/**
 * Builds `entry` as an app's esbuild build does (browser ESM, minified), with code splitting or,
 * without it, with `import()`ed modules left out, and finds its first load.
 *
 * @throws Error when esbuild emits no chunk for the entry.
 */
export async function esbuildFirstLoad(
  entry: string,
  { splitting }: { splitting: boolean },
): Promise<EsbuildFirstLoad> {
  const { metafile, outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    splitting,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    outdir: 'out',
    logLevel: 'silent',
    plugins: splitting ? [] : [lazyLeftOut],
  });
  const outputs = metafile.outputs;
  const entryKey = Object.keys(outputs).find((key) => {
    const point = outputs[key]?.entryPoint;
    return point !== undefined && resolve(point) === resolve(entry);
  });
  if (entryKey === undefined) throw new Error(`esbuild emitted no entry chunk for ${entry}`);
  const first = new Set<string>();
  const visit = (key: string) => {
    const output = outputs[key];
    if (first.has(key) || output === undefined) return;
    first.add(key);
    for (const item of output.imports) if (item.kind === 'import-statement') visit(item.path);
  };
  visit(entryKey);
  const text = new Map<string, string>();
  for (const file of outputFiles) text.set(relative(process.cwd(), file.path), file.text);
  return { metafile, entryKey, first, text };
}

/** The modules (paths as esbuild names them) with code in the output file `key`. */
export function modulesIn(metafile: Metafile, key: string): string[] {
  return Object.entries(metafile.outputs[key]?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([id]) => id);
}
