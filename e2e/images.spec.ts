import { expect, test, type Page } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, recorded, resetServer } from './fake-server.js';

test.beforeEach(async () => {
  await resetServer();
});

type Part = { type: string; text?: string; image_url?: { url: string } };
type SentMessage = { role: string; content: unknown; images?: string[] };

/** Pastes a 2000×1000 PNG into the message box, as a screenshot from the clipboard comes. */
async function pasteImage(demo: DemoPage): Promise<void> {
  await demo.input.evaluate(async (input) => {
    const canvas = document.createElement('canvas');
    canvas.width = 2000;
    canvas.height = 1000;
    const context = canvas.getContext('2d');
    if (context) {
      context.fillStyle = '#d00';
      context.fillRect(0, 0, 2000, 1000);
    }
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    const data = new DataTransfer();
    data.items.add(new File([blob ?? new Blob()], 'shot.png', { type: 'image/png' }));
    input.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, composed: true }),
    );
  });
}

async function naturalSize(page: Page, src: string): Promise<number[]> {
  return page.evaluate(async (url) => {
    const image = new Image();
    image.src = url;
    await image.decode();
    return [image.naturalWidth, image.naturalHeight];
  }, src);
}

test('a pasted image is scaled down and sent to /v1 as an image_url data URL; a reload still shows it', async ({
  page,
}) => {
  const demo = new DemoPage(page);
  await demo.open({ conversation: `e2e-image-${Math.random().toString(36).slice(2)}` });
  await enqueue({ text: 'A red rectangle.' });

  await pasteImage(demo);
  const thumbnail = demo.chat.locator('[part~="attachment"]');
  await expect(thumbnail).toHaveCount(1);
  await expect(demo.chat.getByRole('button', { name: 'Remove image 1' })).toBeVisible();
  await demo.send('What is this?');
  await expect(demo.assistant()).toContainText('A red rectangle.');
  await demo.idle();
  await expect(thumbnail).toHaveCount(0);

  const { requests } = await recorded();
  const messages = (requests[0] as unknown as { messages: SentMessage[] }).messages;
  const content = messages.find((message) => message.role === 'user')?.content as Part[];
  expect(content[0]).toEqual({ type: 'text', text: 'What is this?' });
  expect(content[1]?.type).toBe('image_url');
  const url = content[1]?.image_url?.url ?? '';
  expect(url).toMatch(/^data:image\/png;base64,/);
  expect(await naturalSize(page, url)).toEqual([1024, 512]);
  const shown = demo.log.locator('article.user img[part~="image"]');
  await expect(shown).toHaveAttribute('src', url);

  await page.reload();
  await expect(shown).toHaveAttribute('src', url);
  await expect(demo.log.locator('article.user')).toContainText('What is this?');
});

test('with the Ollama native API the image goes as images: [base64]', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open();
  await demo.chat.evaluate((element) => {
    const chat = element as HTMLElement & { options?: Record<string, unknown> };
    chat.options = { ...chat.options, api: 'ollama' };
  });
  await expect(demo.input).toBeEnabled();
  await enqueue({ text: 'Red.' });

  await pasteImage(demo);
  await expect(demo.chat.locator('[part~="attachment"]')).toHaveCount(1);
  await demo.send('Which colour?');
  await expect(demo.assistant()).toContainText('Red.');

  const { requests } = await recorded();
  const messages = (requests[0] as unknown as { messages: SentMessage[] }).messages;
  const user = messages.find((message) => message.role === 'user');
  expect(user?.content).toBe('Which colour?');
  expect(user?.images).toHaveLength(1);
  const base64 = user?.images?.[0] ?? '';
  expect(base64).not.toMatch(/^data:/);
  expect(await naturalSize(page, `data:image/png;base64,${base64}`)).toEqual([1024, 512]);
});

test('an image can be attached with the file button and removed again', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open();
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 30;
    canvas.height = 20;
    return canvas.toDataURL('image/png');
  });
  const png = Buffer.from(dataUrl.split(',')[1] ?? '', 'base64');
  await demo.chat
    .locator('[part~="attach-button"] input')
    .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
  const thumbnail = demo.chat.locator('[part~="attachment"]');
  await expect(thumbnail).toHaveCount(1);
  await expect(demo.chat.locator('[part~="send-button"]')).toBeEnabled();
  await demo.chat.getByRole('button', { name: 'Remove image 1' }).click();
  await expect(thumbnail).toHaveCount(0);
  await expect(demo.chat.locator('[part~="send-button"]')).toBeDisabled();
});
