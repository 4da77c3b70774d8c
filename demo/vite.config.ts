import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const repo = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('.', import.meta.url));
const WEB_LLM = '@mlc-ai/web-llm';
const VIRTUAL = 'virtual:web-llm';

/**
 * `virtual:web-llm` exports `load()`: a dynamic import of `@mlc-ai/web-llm` when it is
 * installed, else a rejection saying how to install it. WebLLM is optional (a large
 * download, only useful with WebGPU), so the demo must build and run without it.
 */
function optionalWebLLM(): Plugin {
  const installed = existsSync(new URL(`../node_modules/${WEB_LLM}/package.json`, import.meta.url));
  return {
    name: 'open-agent-demo:optional-web-llm',
    resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : undefined),
    load: (id) => {
      if (id !== `\0${VIRTUAL}`) return undefined;
      return installed
        ? `export const load = () => import(${JSON.stringify(WEB_LLM)});`
        : `export const load = () => Promise.reject(new Error(${JSON.stringify(
            `${WEB_LLM} is not installed. Run \`npm install ${WEB_LLM}\` and restart \`npm run demo\` to run a model in the page.`,
          )}));`;
    },
  };
}

export default defineConfig({
  root,
  plugins: [optionalWebLLM()],
  server: {
    fs: { allow: [repo] },
    // e2e sets OPEN_AGENT_E2E: a file saved mid-run must not reload the page under test.
    ...(process.env.OPEN_AGENT_E2E ? { hmr: false, watch: null } : {}),
  },
  // Pre-bundled up front: a dependency found late makes Vite reload the page (flaky e2e).
  optimizeDeps: {
    entries: ['index.html'],
    include: [
      'lit',
      'lit/directives/guard.js',
      'lit/directives/repeat.js',
      'lit/directives/if-defined.js',
      'dompurify',
      'idb-keyval',
      'zod',
      'zod/mini',
      'eventsource-parser',
      '@wllama/wllama',
    ],
    // The sandbox worker's engine, served as it is (ES modules already): found only when the
    // worker starts, it would otherwise be optimised late and reload the page.
    exclude: ['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync'],
  },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: fileURLToPath(new URL('../dist-demo', import.meta.url)),
    emptyOutDir: true,
  },
});
