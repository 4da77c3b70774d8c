import { defineConfig } from 'vite';
import { quickjsWasmByUrl } from './vite.config.js';

/**
 * `dist/agent-chat.js`: the element and everything it imports in one minified ES module, for a
 * plain HTML page (no bundler resolves bare specifiers there). `import()`ed modules (the markdown renderer,
 * DOMPurify, rarely used runtime parts, the MCP client) and the sandbox's worker and wasm stay
 * files under `dist/agent-chat/`, loaded relative to the file — from any web server or an npm CDN.
 */
export default defineConfig({
  base: './',
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: true,
    minify: true,
    // The sandbox's worker and the engine's wasm: beside the chunks, in the file's own folder.
    assetsDir: 'agent-chat',
    lib: {
      entry: { 'agent-chat': 'components/standalone.ts' },
      formats: ['es'],
    },
    rolldownOptions: {
      // The entry may export more than its own names (what the lazy chunks import from it), so
      // that everything the first paint needs is this one file: one request, one round trip,
      // instead of the entry and a dozen small shared chunks fetched one import level at a time.
      preserveEntrySignatures: 'allow-extension',
      output: {
        chunkFileNames: 'agent-chat/[name]-[hash].js',
        minify: true,
        codeSplitting: {
          groups: [
            { name: 'agent-chat', tags: ['$initial'], priority: 10 },
            // What a first answer loads, merged into a few files: each lazy module of its own
            // was a request, and the model call's were fetched one import level at a time
            // (context, then the aggregator, then its tag reader) before the request went out.
            // Only code every first answer runs; the rest stays in chunks of its own (dialects and
            // their markup parser, summaries, Ollama, grammars past JavaScript's, tool cards).
            {
              name: 'model-call',
              test: /[\\/]src[\\/](stream[\\/](?!tool-call-markup-parser|glued-tool-calls|markup-placement)[^\\/]+|context[\\/][^\\/]+|backend[\\/]identify-server)\.ts$/,
              priority: 5,
            },
            {
              name: 'markdown',
              test: /[\\/](components[\\/]markdown[\\/](?!highlight-code)|components[\\/](chat[\\/]message-row|transcript[\\/](message-actions|branch-marks))\.ts)/,
              priority: 5,
            },
            {
              name: 'highlight',
              test: /components[\\/]markdown[\\/]highlight-code|@speed-highlight[\\/]core[\\/]dist[\\/](tokenize|languages[\\/](js|regex|jsdoc|todo))\.js/,
              priority: 5,
            },
          ],
        },
      },
    },
  },
  worker: {
    format: 'es',
    plugins: () => [quickjsWasmByUrl()],
    rolldownOptions: { output: { inlineDynamicImports: true } },
  },
});
