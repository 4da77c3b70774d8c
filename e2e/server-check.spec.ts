import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { resetServer } from './fake-server.js';
import { startFakeModelServer } from '../test/support/fake-model-servers.js';

test.beforeEach(async () => {
  await resetServer();
});

test('the demo\'s server settings run "Check this server" and show the report with its fixes', async ({
  page,
}, testInfo) => {
  const demo = new DemoPage(page);
  await demo.open();
  const settings = page.getByRole('complementary', { name: 'Settings' });
  await settings.getByRole('button', { name: 'Check this server' }).click();
  const report = settings.getByRole('list', { name: 'Server check' });
  await expect(report.getByRole('listitem').first()).toContainText('reachable', {
    timeout: 15_000,
  });
  const rows = await report.getByRole('listitem').allTextContents();
  expect(rows.length).toBeGreaterThan(3);
  // Every row says its status in words; every failed one says how to fix it.
  for (const row of rows) expect(row).toMatch(/^\s*(✓ Pass|! Warning|✕ Failed) · /);
  for (const row of rows.filter((text) => text.includes('Failed'))) expect(row).toContain('Fix: ');
  await settings.screenshot({ path: testInfo.outputPath('server-check.png') });
});

// The settings column with its widest content: a probed server's row and the report of a server
// whose fixes are long (a fake Ollama: context, truncation and images fixes with code spans).
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`the server settings and the report stay inside the settings column (${viewport.width}x${viewport.height})`, async ({
    page,
  }, testInfo) => {
    const ollama = await startFakeModelServer({ kind: 'ollama' });
    try {
      await page.setViewportSize(viewport);
      const demo = new DemoPage(page);
      await demo.open({ source: 'server', baseURL: `${ollama.url}/v1`, model: 'qwen3:4b' });
      if (viewport.width < 800) await page.getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('complementary', { name: 'Settings' });
      await page.getByLabel('Another server URL').fill(`${ollama.url}/v1`);
      await settings.getByRole('button', { name: 'Probe' }).click();
      await settings.getByRole('button', { name: 'Check this server' }).click();
      const report = settings.getByRole('list', { name: 'Server check' });
      await expect(report).toContainText('response-format', { timeout: 15_000 });
      await expect(settings.getByRole('button', { name: 'Probe' })).toBeEnabled();
      const outside = await settings.evaluate((aside) => {
        const edge = aside.getBoundingClientRect().right;
        return [...aside.querySelectorAll('*')]
          .filter((element) => !element.matches('.visually-hidden, .visually-hidden *'))
          .filter((element) => element.getBoundingClientRect().right > edge + 0.5)
          .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
      });
      expect(outside).toEqual([]);
      expect(await settings.evaluate((aside) => aside.scrollWidth - aside.clientWidth)).toBe(0);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
      ).toBe(0);
      await report.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: testInfo.outputPath(`server-settings-${viewport.width}.png`),
      });
    } finally {
      await ollama.close();
    }
  });
}
