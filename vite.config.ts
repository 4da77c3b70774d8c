import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { existsSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
};
const dependencies = Object.keys(pkg.dependencies ?? {});
const external = (id: string) =>
  dependencies.some((name) => id === name || id.startsWith(`${name}/`));

/** Debian's chromium; Playwright's own download does not work on our CI machines. */
export const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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
          ],
        },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          setupFiles: ['test/browser/setup.ts'],
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
