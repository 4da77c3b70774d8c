import { build } from 'vite';
import { componentsSideEffects } from './components-side-effects.js';

/**
 * Builds one bench page (an `index.html` in `root`, relative to the repository root) into
 * `outDir` as a production bundle — minified, Lit in production mode, workers as ES modules —
 * so the browser figures measure what an app would ship, not the dev server.
 */
export async function buildPage(root: string, outDir: string): Promise<void> {
  await build({
    root,
    configFile: false,
    plugins: [componentsSideEffects()],
    logLevel: 'warn',
    mode: 'production',
    base: './',
    build: { outDir, emptyOutDir: true, target: 'es2022', minify: true, sourcemap: false },
    worker: { format: 'es' },
  });
}
