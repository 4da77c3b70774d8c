import type { Plugin } from 'esbuild';

/**
 * An esbuild plugin that leaves `import()`ed modules out of a build (external): what an entry
 * needs before anything loads lazily. `.size-limit.js` has its own copy (a JS config).
 */
export const lazyLeftOut: Plugin = {
  name: 'lazy-left-out',
  setup(context) {
    context.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
  },
};
