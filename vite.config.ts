import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { readFileSync } from 'node:fs';
import { chromiumArgs, chromiumPath } from './test/support/chromium.js';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
};
const dependencies = Object.keys(pkg.dependencies ?? {});
const external = (id: string) =>
  dependencies.some((name) => id === name || id.startsWith(`${name}/`));

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
        worker: 'src/worker/index.ts',
        mcp: 'src/mcp/index.ts',
      },
      formats: ['es'],
    },
    rolldownOptions: { external },
  },
  worker: { format: 'es' },
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**'],
        },
      },
      {
        optimizeDeps: {
          include: [
            'lit',
            'lit/directives/guard.js',
            'lit/directives/repeat.js',
            'dompurify',
            'idb-keyval',
            'marked',
            'eventsource-parser',
            'zod',
            'zod/mini',
            '@modelcontextprotocol/sdk/client/index.js',
            '@modelcontextprotocol/sdk/client/streamableHttp.js',
            '@modelcontextprotocol/sdk/client/sse.js',
            '@modelcontextprotocol/sdk/validation/cfworker',
          ],
        },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          setupFiles: ['test/browser/setup.ts'],
          // MCP servers the page reaches cross-origin (test/browser/mcp.test.ts).
          globalSetup: ['test/support/mcp-global-setup.ts'],
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
