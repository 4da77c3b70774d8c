import { expect, test, type Locator, type Page } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, resetServer } from './fake-server.js';

// Issue 26's phone and desktop checks, each at 390 × 844 and 1280 × 800, light and dark. The
// screenshots go to test-results/screens/ to be looked at.

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

test.beforeEach(async () => {
  await resetServer();
});

/** How far `locator`'s content reaches past its own box, sideways (0 when nothing overflows). */
async function sidewaysOverflow(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const children = [
      ...element.children,
      ...[...element.querySelectorAll('slot')].flatMap((slot) => slot.assignedElements()),
    ];
    const reach = Math.max(
      box.right,
      ...children.map((child) => child.getBoundingClientRect().right),
    );
    return Math.max(element.scrollWidth - element.clientWidth, reach - box.right);
  });
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/${name}.png` });
}

for (const viewport of VIEWPORTS) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test.describe(`${viewport.name} ${viewport.width}×${viewport.height}, ${colorScheme}`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height }, colorScheme });

      test('the message box keeps most of its row, and neither header nor transcript overflows sideways', async ({
        page,
      }) => {
        const demo = new DemoPage(page);
        await demo.open();
        await enqueue({
          text: `A long answer with a long word: ${'supercalifragilistic'.repeat(6)} and \`${'code'.repeat(30)}\`.`,
          usage: { prompt_tokens: 3100, completion_tokens: 40, total_tokens: 3140 },
        });
        await demo.send('Hello');
        await expect(demo.assistant()).toContainText('A long answer');
        await demo.idle();
        // The state the issue measured: empty box, Regenerate shown, the token meter shown.
        await expect(demo.chat.locator('[part~="regenerate-button"]')).toBeVisible();
        await expect(demo.chat.locator('[part~="context-meter"]')).toBeVisible();
        await screenshot(page, `composer-${viewport.name}-${colorScheme}`);

        const composer = demo.chat.locator('[part~="composer"]');
        const row = await composer.evaluate(
          (form) =>
            form.clientWidth -
            parseFloat(getComputedStyle(form).paddingLeft) -
            parseFloat(getComputedStyle(form).paddingRight),
        );
        const box = await demo.input.boundingBox();
        expect((box?.width ?? 0) / row).toBeGreaterThanOrEqual(0.6);
        const placeholder = await demo.input.evaluate((input) => {
          const area = input as HTMLTextAreaElement;
          return {
            lines: Math.round(area.scrollHeight / parseFloat(getComputedStyle(area).lineHeight)),
          };
        });
        expect(placeholder.lines).toBeLessThanOrEqual(2);

        expect(await sidewaysOverflow(demo.chat.locator('[part~="header"]'))).toBeLessThanOrEqual(
          0,
        );
        const newChat = await demo.chat.locator('[part~="new-button"]').evaluate((button) => ({
          wrapped: button.getBoundingClientRect().height > 40,
          clipped: button.scrollWidth > button.clientWidth,
        }));
        expect(newChat).toEqual({ wrapped: false, clipped: false });
        expect(
          await demo.log.evaluate((log) => log.scrollWidth - log.clientWidth),
        ).toBeLessThanOrEqual(0);
      });

      test('after a reload a stopped answer still says "Stopped." and the meter shows the same figures', async ({
        page,
      }) => {
        const demo = new DemoPage(page);
        await demo.open({ conversation: `e2e-stopped-${Math.random().toString(36).slice(2)}` });
        await enqueue({
          text: 'A whole answer.',
          usage: { prompt_tokens: 3100, completion_tokens: 40, total_tokens: 3140 },
        });
        await demo.send('Hello');
        await expect(demo.assistant()).toContainText('A whole answer.');
        await demo.idle();
        await enqueue({
          text: Array.from({ length: 200 }, (_, index) => `word${index} `),
          delayMs: 50,
        });
        await demo.send('Write a lot');
        await expect(demo.assistant()).toContainText('word1');
        await demo.chat.locator('[part~="stop-button"]').click();
        await demo.idle();
        const meter = demo.chat.locator('[part~="context-meter"]');
        const notes = demo.log.locator('article.assistant [part~="note"]');
        await expect(notes).toHaveText(['Stopped.']);
        const before = {
          meter: await meter.textContent(),
          answer: await demo.assistant().textContent(),
        };
        expect(before.meter).toMatch(/tokens/);

        await page.reload();
        await expect(demo.assistant()).toContainText('word1');
        await expect(notes).toHaveText(['Stopped.']);
        await expect(meter).toHaveText(before.meter ?? '');
        await screenshot(page, `reload-stopped-${viewport.name}-${colorScheme}`);
      });

      test('an attached image shows a remove button, with a cue on hover and focus', async ({
        page,
      }) => {
        const demo = new DemoPage(page);
        await demo.open();
        const dataUrl = await page.evaluate(() => {
          const canvas = document.createElement('canvas');
          canvas.width = 120;
          canvas.height = 80;
          const context = canvas.getContext('2d');
          if (context) {
            context.fillStyle = '#2a7';
            context.fillRect(0, 0, 120, 80);
          }
          return canvas.toDataURL('image/png');
        });
        await demo.chat.locator('[part~="attach-button"] input').setInputFiles({
          name: 'green.png',
          mimeType: 'image/png',
          buffer: Buffer.from(dataUrl.split(',')[1] ?? '', 'base64'),
        });
        const attachment = demo.chat.locator('[part~="attachment"]');
        const remove = demo.chat.getByRole('button', { name: 'Remove image 1' });
        await expect(attachment).toHaveCount(1);
        await expect(remove).toBeVisible();
        await expect(remove).toHaveText('×');
        // The button sits on the thumbnail, inside its box.
        const [thumb, button] = [await attachment.boundingBox(), await remove.boundingBox()];
        expect(
          button &&
            thumb &&
            button.x >= thumb.x &&
            button.x + button.width <= thumb.x + thumb.width + 1,
        ).toBe(true);
        const outline = () =>
          attachment.evaluate((element) => getComputedStyle(element).outlineColor);
        const resting = await outline();
        await remove.focus();
        await expect.poll(outline).not.toBe(resting);
        await screenshot(page, `attachment-${viewport.name}-${colorScheme}`);
        // A click on the picture itself keeps it; the button removes it, from the keyboard too.
        await attachment.locator('img').click();
        await expect(attachment).toHaveCount(1);
        await remove.focus();
        await page.keyboard.press('Enter');
        await expect(attachment).toHaveCount(0);
        await expect(demo.input).toBeFocused();
      });

      test('the "Latest" button floats over the transcript, clear of the message box', async ({
        page,
      }) => {
        const demo = new DemoPage(page);
        await demo.open();
        const paragraphs = Array.from(
          { length: 40 },
          (_, index) => `Paragraph ${index + 1} of a long answer.`,
        );
        await enqueue({ text: paragraphs.join('\n\n') });
        await demo.send('Hello');
        await expect(demo.assistant()).toContainText('Paragraph 40');
        await demo.idle();
        // Scrolled back up, the transcript offers the way down.
        await demo.log.evaluate((log) => log.scrollTo({ top: 0 }));
        const jump = demo.chat.locator('[part~="jump-button"]');
        await expect(jump).toBeVisible();
        await screenshot(page, `latest-${viewport.name}-${colorScheme}`);
        const button = await jump.boundingBox();
        const log = await demo.log.boundingBox();
        const composer = await demo.chat.locator('[part~="composer"]').boundingBox();
        if (!button || !log || !composer) throw new Error('the button, log or composer has no box');
        // Inside the transcript's visible part, and above the message box's top edge.
        expect(button.y).toBeGreaterThanOrEqual(log.y);
        expect(button.y + button.height).toBeLessThanOrEqual(log.y + log.height);
        expect(button.y + button.height).toBeLessThanOrEqual(composer.y);
      });

      test('Escape stops an answer with focus anywhere in the element', async ({ page }) => {
        const demo = new DemoPage(page);
        await demo.open();
        await enqueue({
          text: Array.from({ length: 200 }, (_, index) => `word${index} `),
          delayMs: 50,
        });
        await demo.send('Write a lot');
        await expect(demo.chat.locator('[part~="stop-button"]')).toBeVisible();
        await demo.log.focus();
        await page.keyboard.press('Escape');
        await demo.idle();
        await expect(demo.assistant()).not.toContainText('word199');
      });
    });
  }
}

test.describe('the conversation list follows the width', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('open beside the chat on a desktop, it closes when the window turns phone-sized and comes back', async ({
    page,
  }) => {
    const demo = new DemoPage(page);
    await demo.open();
    const list = demo.chat.getByRole('complementary', { name: 'Conversations' });
    await expect(list).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(list).toBeHidden();
    await expect(demo.input).toBeInViewport();
    await screenshot(page, 'drawer-after-resize-phone');

    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(list).toBeVisible();
  });
});
