import { resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

// esbuild's code splitting gives a first load every module the entry reaches by static imports
// that any lazy chunk uses, whether or not the entry's code calls it. A public export of a module
// that the runtime also loads by import() (the aggregator, the CORS hint, the conversation file
// once were) thus put that module into every esbuild app's first load. This guards the rule:
// what an app's esbuild build loads first is what it loads without code splitting, bar a few
// shared constants.

/** Leaves `import()`ed modules out of the build: what the entry itself needs. */
const lazyLeftOut: Plugin = {
  name: 'lazy-left-out',
  setup(context) {
    context.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
  },
};

/** Bytes of each module in the entry's first load (entry chunk + the chunks it imports statically). */
async function firstLoadModules(entry: string, splitting: boolean): Promise<Map<string, number>> {
  const result = await build({
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
  const outputs = result.metafile.outputs;
  const entryKey = Object.keys(outputs).find((key) => {
    const point = outputs[key]?.entryPoint;
    return point !== undefined && resolve(point) === resolve(entry);
  });
  const first = new Set<string>();
  const visit = (key: string) => {
    if (first.has(key) || outputs[key] === undefined) return;
    first.add(key);
    for (const item of outputs[key].imports) if (item.kind === 'import-statement') visit(item.path);
  };
  if (entryKey !== undefined) visit(entryKey);
  const modules = new Map<string, number>();
  for (const key of first) {
    for (const [id, input] of Object.entries(outputs[key]?.inputs ?? {})) {
      modules.set(id, (modules.get(id) ?? 0) + input.bytesInOutput);
    }
  }
  return modules;
}

describe('esbuild first loads carry no module only lazy chunks use', () => {
  for (const entry of ['query-only.ts', 'client-json-tool.ts', 'chat-page.ts']) {
    it(
      entry,
      async () => {
        const path = `bench/entries/${entry}`;
        const [whole, split] = await Promise.all([
          firstLoadModules(path, false),
          firstLoadModules(path, true),
        ]);
        const leaked = [...split]
          .map(([id, bytes]) => [id, bytes - (whole.get(id) ?? 0)] as const)
          // A few bytes either way are the minifier's names and import lists, not code.
          .filter(([, extra]) => extra > 50);
        const extraBytes = leaked.reduce((sum, [, extra]) => sum + extra, 0);
        // Today at most ~1.4 KB before gzip: a message helper, and for a Client the parts of the
        // message schema and valibot that lazy chunks use beyond what restore() checks. A whole
        // module leaking (the CORS hint alone was 1.9 KB, the aggregator 13 KB) fails this.
        const list = leaked.map(([id, extra]) => `${id} +${extra} B`).join(', ');
        expect(extraBytes, `modules only lazy chunks use, in the first load: ${list}`).toBeLessThan(
          2_000,
        );
      },
      30_000,
    );
  }
});
