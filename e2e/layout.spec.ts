import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone the settings fold behind one button and the chat gets the screen', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open({ source: 'demo' });
  const toggle = page.getByRole('button', { name: 'Settings' });

  await expect(page.getByText('Run tools automatically')).toBeHidden();
  await expect(demo.chat.getByRole('heading', { name: 'What can I help with?' })).toBeInViewport();
  const chatBox = await demo.chat.boundingBox();
  expect(chatBox?.height).toBeGreaterThan(844 * 0.8);

  await toggle.click();
  await expect(page.getByText('Run tools automatically')).toBeVisible();
  await page.getByRole('button', { name: 'Hide settings' }).click();
  await expect(page.getByText('Run tools automatically')).toBeHidden();
});
