import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, recorded, resetServer } from './fake-server.js';

test.beforeEach(async () => {
  await resetServer();
});

type Part = { type: string; text?: string; image_url?: { url: string } };

test('a pasted image is scaled down and sent as an image_url data URL; a reload shows it', async ({
  page,
}) => {
  const demo = new DemoPage(page);
  await demo.open({ conversation: 'e2e-image' });
  await enqueue({ text: 'A red rectangle.' });

  // Paste a 2000×1000 PNG into the message box, as a screenshot from the clipboard would come.
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
  await expect(demo.chat.locator('[part~="attachment"]')).toHaveCount(1);
  await demo.send('What is this?');
  await expect(demo.assistant()).toContainText('A red rectangle.');
  await demo.idle();

  const { requests } = await recorded();
  const messages = (requests[0] as { messages: { role: string; content: unknown }[] }).messages;
  const content = messages.find((message) => message.role === 'user')?.content as Part[];
  expect(content[0]).toEqual({ type: 'text', text: 'What is this?' });
  expect(content[1]?.type).toBe('image_url');
  const url = content[1]?.image_url?.url ?? '';
  expect(url).toMatch(/^data:image\/png;base64,/);
  const size = await page.evaluate(async (src) => {
    const image = new Image();
    image.src = src;
    await image.decode();
    return [image.naturalWidth, image.naturalHeight];
  }, url);
  expect(size).toEqual([1024, 512]);
  await expect(demo.log.locator('article.user img[part~="image"]')).toHaveCount(1);

  await page.reload();
  await expect(demo.log.locator('article.user img[part~="image"]')).toHaveAttribute('src', url);
  await expect(demo.log.locator('article.user')).toContainText('What is this?');
});
