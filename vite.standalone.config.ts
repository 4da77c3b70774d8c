import { defineConfig } from 'vite';

/**
 * `dist/agent-chat.js`: the element and everything it imports in one minified ES module, for a
 * plain HTML page (no bundler resolves bare specifiers there). `import()`ed modules (marked,
 * DOMPurify, rarely used runtime parts) stay chunks under `dist/agent-chat/`, loaded relative
 * to the file — from any web server or an npm CDN.
 */
export default defineConfig({
  base: './',
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: true,
    minify: true,
    lib: {
      entry: { 'agent-chat': 'components/standalone.ts' },
      formats: ['es'],
    },
    rolldownOptions: {
      output: { chunkFileNames: 'agent-chat/[name]-[hash].js', minify: true },
    },
  },
});
