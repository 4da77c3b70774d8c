import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { FAKE_BASE_URL, recorded, resetServer } from './fake-server.js';

test.beforeEach(async () => {
  await resetServer();
});

test('the built-in demo model works with no endpoint, and the finished conversation looks right', async ({
  page,
}, testInfo) => {
  const demo = new DemoPage(page);
  await page.goto(`/?source=demo&approval=run_javascript&conversation=e2e-offline-${Date.now()}`);
  await expect(demo.chat.getByText('Scripted demo · not an LLM')).toBeVisible();

  await demo.send('What is 12 * (3 + 4)?');
  await expect(demo.assistant().locator('.markdown strong')).toHaveText('12 * (3 + 4) = 84');

  await demo.send('Run `[1, 2, 3].map((x) => x * x)`');
  const card = demo.toolCard('run_javascript');
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(demo.assistant()).toContainText('The code ran in the sandbox worker');
  await expect(card.locator('[part~="tool-result"]')).toContainText('9');

  await demo.send('What can you do?');
  await expect(demo.assistant()).toContainText('For real answers, pick a local server');
  await demo.idle();
  expect((await recorded()).requests).toHaveLength(0);

  await page.emulateMedia({ colorScheme: 'light' });
  const light = testInfo.outputPath('conversation-light.png');
  await page.screenshot({ path: light });
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = testInfo.outputPath('conversation-dark.png');
  await page.screenshot({ path: dark });
  await testInfo.attach('conversation-light', { path: light, contentType: 'image/png' });
  await testInfo.attach('conversation-dark', { path: dark, contentType: 'image/png' });
});

test('endpoint discovery finds the fake server and its models', async ({ page }) => {
  const demo = new DemoPage(page);
  await page.goto('/?source=server');
  await page.getByPlaceholder(/Another URL/).fill(FAKE_BASE_URL.replace('/v1', ''));
  await page.getByRole('button', { name: 'Probe' }).click();

  const found = page.locator('.endpoint.ready');
  await expect(found).toContainText('fake-model');
  await expect(page.locator('.endpoint').filter({ hasText: 'Ollama' })).toContainText(
    /Not running|Blocked|Error/,
  );
  await found.getByRole('button', { name: 'fake-model' }).click();
  await expect(demo.input).toBeEnabled();
});
