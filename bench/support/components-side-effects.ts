import type { Plugin } from 'vite';

/**
 * Marks components/index.ts as having side effects (it calls `customElements.define`).
 * package.json's `sideEffects` lists only `./dist/components.js` — right for consumers of the
 * published package, but a bundle built from the sources (these benches, the demo) would
 * otherwise drop every element definition without a word.
 */
export function componentsSideEffects(): Plugin {
  return {
    name: 'open-agent-bench:components-side-effects',
    transform(_code, id) {
      return /\/components\/index\.ts$/.test(id) ? { moduleSideEffects: true } : undefined;
    },
  };
}
