import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { resetServer } from './fake-server.js';

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
