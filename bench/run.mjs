// Entry of `npm run bench`. Node 20 cannot run TypeScript, so this bundles bench/main.ts (which
// imports the library straight from src/, internals included) with Vite into node_modules/.cache
// — outside the linted tree — and runs it. Figures and their targets are printed by main.ts.
import { build } from 'vite';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = fileURLToPath(
  new URL('../node_modules/.cache/open-agent-bench/node', import.meta.url),
);

await build({
  root,
  configFile: false,
  logLevel: 'warn',
  build: {
    ssr: 'bench/main.ts',
    outDir,
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rolldownOptions: { output: { entryFileNames: 'main.mjs' } },
  },
});

// Every path in the bench (entries, build folders, bench/results) is relative to the repository root.
process.chdir(root);
const { main } = await import(pathToFileURL(`${outDir}/main.mjs`).href);
process.exitCode = await main(process.argv.slice(2));
