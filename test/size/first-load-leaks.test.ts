import { describe, expect, it } from 'vitest';
import { esbuildFirstLoad } from './esbuild-first-load.js';

// esbuild's code splitting gives a first load every module the entry reaches by static imports
// that any lazy chunk uses, whether or not the entry's code calls it. A public export of a module
// that the runtime also loads by import() (the aggregator, the CORS hint, the conversation file
// once were) thus put that module into every esbuild app's first load. This guards the rule:
// what an app's esbuild build loads first is what it loads without code splitting, bar a few
// shared constants.

/** Bytes of each module in the entry's first load (entry chunk + the chunks it imports statically). */
async function firstLoadModules(entry: string, splitting: boolean): Promise<Map<string, number>> {
  const { metafile, first } = await esbuildFirstLoad(entry, { splitting });
  const outputs = metafile.outputs;
  const modules = new Map<string, number>();
  for (const key of first) {
    for (const [id, input] of Object.entries(outputs[key]?.inputs ?? {})) {
      modules.set(id, (modules.get(id) ?? 0) + input.bytesInOutput);
    }
  }
  return modules;
}

describe('esbuild first loads carry no module only lazy chunks use', () => {
  for (const entry of [
    'query-only.ts',
    'client-json-tool.ts',
    'chat-page.ts',
    'chat-page-picker.ts',
  ]) {
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
