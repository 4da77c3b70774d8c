import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { resetServer } from './fake-server.js';

test.beforeEach(async () => {
  await resetServer();
});

// axe-core over the demo page (the shadow roots of <agent-chat> included): a conversation
// with markdown, code, a finished tool card and one waiting for approval, an image attached,
// in light and dark.
for (const colorScheme of ['light', 'dark'] as const) {
  test(`the chat has no serious accessibility violations (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    const demo = new DemoPage(page);
    await page.goto(
      `/?source=demo&approval=run_javascript&conversation=e2e-a11y-${colorScheme}-${Date.now()}`,
    );
    await demo.send('What is 12 * (3 + 4)?');
    await expect(demo.assistant().locator('.markdown strong')).toHaveText('12 * (3 + 4) = 84');
    await demo.send('Run `[1, 2, 3].map((x) => x * x)`');
    await expect(
      demo.toolCard('run_javascript').getByRole('button', { name: 'Approve', exact: true }),
    ).toBeVisible();

    // The image controls: the attach button, and a thumbnail (alt text, a remove button).
    const dataUrl = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 60;
      canvas.height = 40;
      return canvas.toDataURL('image/png');
    });
    await demo.chat.locator('[part~="attach-button"] input').setInputFiles({
      name: 'a.png',
      mimeType: 'image/png',
      buffer: Buffer.from(dataUrl.split(',')[1] ?? '', 'base64'),
    });
    await expect(demo.chat.getByRole('button', { name: 'Remove image 1' })).toBeVisible();

    // The context meter in the header, shown once a request was made.
    await expect(
      demo.chat.getByRole('meter', { name: 'Context window used by the last request' }),
    ).toBeVisible();

    const { violations } = await new AxeBuilder({ page }).analyze();

    const serious = violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        help: violation.help,
        nodes: violation.nodes.map(
          (node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`,
        ),
      }));
    expect(serious).toEqual([]);
  });
}
