import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { readFileSync } from 'node:fs';
import { chromiumArgs, chromiumPath } from './test/support/chromium.js';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
};
const dependencies = Object.keys(pkg.dependencies ?? {});
// An asset import (`…/wasm?url`) is never external: the build emits the file and its URL.
const external = (id: string) =>
  !id.includes('?') && dependencies.some((name) => id === name || id.startsWith(`${name}/`));

/**
 * The engine's glue code names its wasm file with `new URL('emscripten-module.wasm',
 * import.meta.url)`, which a library build inlines as 680 kB of base64 into the worker chunk.
 * The sandbox passes the file's URL itself (src/worker/sandbox-engine.ts), so that fallback
 * is hidden from the asset plugin and the wasm ships once, as its own file.
 */
export const quickjsWasmByUrl = (): Plugin => ({
  name: 'open-agent:quickjs-wasm-by-url',
  transform(code, id) {
    if (!id.includes('quickjs-wasmfile-release-sync/dist/emscripten-module')) return null;
    return {
      code: code.replaceAll(
        'new URL("emscripten-module.wasm",import.meta.url)',
        'new URL("emscripten-module.wasm",import.meta["url"])',
      ),
      map: null, // same line, a few columns: not worth a source map
    };
  },
});

export default defineConfig({
  // Library-mode workers need a relative base, or consumers resolve them from the origin root.
  base: './',
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    lib: {
      entry: {
        index: 'src/index.ts',
        components: 'components/index.ts',
        // `<agent-model-picker>`, opt-in: a chat that does not import it ships none of it.
        'model-picker': 'components/model-picker/index.ts',
        worker: 'src/worker/index.ts',
        mcp: 'src/mcp/index.ts',
        // `open-agent doctor` (bin/open-agent.js imports it): Node only, never imported by a page.
        cli: 'src/models/doctor-cli.ts',
      },
      formats: ['es'],
    },
    rolldownOptions: {
      external,
      // One file per source module, so that an app's bundler sees the same module boundaries we
      // do: it tree-shakes and splits per module, and our lazy chunks stay lazy in its build.
      output: { preserveModules: true, preserveModulesRoot: '.', entryFileNames: '[name].js' },
    },
  },
  worker: {
    format: 'es',
    plugins: () => [quickjsWasmByUrl()],
    // One file per worker: a consumer's bundler copies a worker of dist/ as it is, so chunks
    // it would import (the engine's glue) would be left behind.
    rolldownOptions: { output: { inlineDynamicImports: true } },
  },
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', 'test/install/**'],
        },
      },
      {
        // The README's install, in a temporary project (npm pack builds, npm installs): minutes
        // of CPU, run on its own after the other tests (`npm run test:install`) so that it never
        // starves their timing-sensitive cases on a small machine.
        test: { name: 'install', environment: 'node', include: ['test/install/**/*.test.ts'] },
      },
      {
        optimizeDeps: {
          include: [
            'lit',
            'lit/directives/guard.js',
            'lit/directives/repeat.js',
            'dompurify',
            'idb-keyval',
            'eventsource-parser',
            'zod',
            'zod/mini',
            '@modelcontextprotocol/sdk/client/index.js',
            '@modelcontextprotocol/sdk/client/streamableHttp.js',
            '@modelcontextprotocol/sdk/client/sse.js',
            '@modelcontextprotocol/sdk/validation/cfworker',
            // The engine tests (test/browser/wllama-engine.test.ts) import it on first use.
            '@wllama/wllama',
          ],
          // Served as they are: the engine finds its .wasm next to its own module
          // (`new URL('emscripten-module.wasm', import.meta.url)`), which pre-bundling would move.
          exclude: ['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync'],
        },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          setupFiles: ['test/browser/setup.ts'],
          // The attacker's recording server (sandbox attacks) and the MCP servers the page reaches
          // cross-origin (test/browser/mcp.test.ts).
          globalSetup: ['test/support/recording-server.ts', 'test/support/mcp-global-setup.ts'],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                ...(chromiumPath ? { executablePath: chromiumPath } : {}),
                args: chromiumArgs,
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
