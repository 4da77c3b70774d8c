import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../test/support/chromium.js';

// Overridable so two checkouts can run their e2e suites at once without sharing servers.
export const VITE_PORT = Number(process.env.E2E_VITE_PORT ?? 5173);
export const FAKE_PORT = Number(process.env.E2E_FAKE_PORT ?? 8787);
const repo = fileURLToPath(new URL('..', import.meta.url));

/**
 * e2e: the demo page (Vite dev server) against the fake OpenAI-compatible server, in the
 * system Chromium (Playwright's own download does not work on our machines).
 */
export default defineConfig({
  testDir: '.',
  outputDir: '../test-results/e2e',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: '../playwright-report' }]]
    : 'list',
  use: {
    baseURL: `http://127.0.0.1:${VITE_PORT}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      ...(chromiumPath ? { executablePath: chromiumPath } : {}),
      args: chromiumArgs,
    },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      command: `node test/support/fake-openai-server.mjs --port ${FAKE_PORT}`,
      cwd: repo,
      url: `http://127.0.0.1:${FAKE_PORT}/health`,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
    },
    {
      command: `node node_modules/vite/bin/vite.js --config demo/vite.config.ts --host 127.0.0.1 --port ${VITE_PORT} --strictPort`,
      cwd: repo,
      url: `http://127.0.0.1:${VITE_PORT}/`,
      env: { OPEN_AGENT_E2E: '1' },
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
  ],
});
