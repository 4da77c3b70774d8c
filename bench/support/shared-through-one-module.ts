import { relative, resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { esbuildFirstLoad, modulesIn } from '../../test/size/esbuild-first-load.js';

const NAMESPACE = 'shared-through-one-module';

/**
 * A design experiment, for the bench only: an esbuild plugin that routes every static import a
 * lazily loaded module makes of a first-load module through one module importing all of them.
 * Every such module is then reached by the same entries, so esbuild's code splitting puts them in
 * one chunk: the first load becomes two files (the entry and that chunk) instead of one per set
 * of users. It shows what lazy code importing its first-load helpers from one barrel would give.
 *
 * @param entry - the app entry the plugin is for (it finds the lazy and shared modules by a first
 *   build of it).
 */
export async function sharedThroughOneModule(entry: string): Promise<Plugin> {
  const { metafile, first } = await esbuildFirstLoad(entry, { splitting: true });
  const held = (key: string) => modulesIn(metafile, key);
  const firstLoad = new Set([...first].flatMap(held));
  const lazy = new Set(
    Object.keys(metafile.outputs)
      .filter((key) => !first.has(key))
      .flatMap(held),
  );
  const shared = new Set<string>();
  for (const id of lazy) {
    for (const item of metafile.inputs[id]?.imports ?? []) {
      if (item.kind === 'import-statement' && firstLoad.has(item.path))
        shared.add(resolve(item.path));
    }
  }
  return {
    name: NAMESPACE,
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (
          args.kind !== 'import-statement' ||
          args.namespace === NAMESPACE ||
          args.pluginData === NAMESPACE
        )
          return undefined;
        if (!lazy.has(relative(process.cwd(), args.importer))) return undefined;
        const target = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: NAMESPACE,
        });
        return shared.has(target.path) ? { path: target.path, namespace: NAMESPACE } : undefined;
      });
      // The module stands for one shared module (its exports) and imports every other one.
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: [
          ...[...shared].map((path) => `import ${JSON.stringify(path)};`),
          `export * from ${JSON.stringify(args.path)};`,
        ].join('\n'),
        resolveDir: resolve('.'),
        loader: 'js',
      }));
    },
  };
}
