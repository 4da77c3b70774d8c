import { expect, test } from '@playwright/test';
import { createServer } from 'node:http';
import { DemoPage } from './demo-page.js';
import { FAKE_BASE_URL } from './fake-server.js';

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone the settings fold behind one button and the chat gets the screen', async ({
  page,
}) => {
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

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('long strings in the server settings wrap inside the settings column', async ({ page }) => {
    // A server that answers without CORS headers: the probe reports it with a fix to apply.
    const server = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const demo = new DemoPage(page);
    const long = `http://127.0.0.1:${port}/${'very-long-path-segment-'.repeat(12)}v1`;
    await demo.open({ source: 'server', baseURL: long, model: `model-${'x'.repeat(150)}` });
    const settings = page.getByRole('complementary', { name: 'Settings' });

    await page.getByLabel('Another server URL').fill(long);
    await page.getByRole('button', { name: 'Probe' }).click();
    await expect(settings.locator('.endpoint.cors, .endpoint .fix').first()).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByRole('button', { name: 'Probe' })).toBeEnabled({ timeout: 15_000 });

    const overflow = await settings.evaluate((aside) => aside.scrollWidth - aside.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const asideBox = await settings.boundingBox();
    const probeBox = await page.getByRole('button', { name: 'Probe' }).boundingBox();
    expect((probeBox?.x ?? 0) + (probeBox?.width ?? 0)).toBeLessThanOrEqual(
      (asideBox?.x ?? 0) + (asideBox?.width ?? 0),
    );
    server.close();
  });
});

test.describe('a local server with no model chosen', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('says so with one next step instead of dead chips, and a typed model takes effect without blur', async ({
    page,
  }) => {
    await page.goto(
      `/?${new URLSearchParams({ source: 'server', baseURL: FAKE_BASE_URL, model: '', conversation: `e2e-${Date.now()}` })}`,
    );
    const chat = page.locator('agent-chat');
    const input = chat.getByRole('textbox', { name: 'Message' });

    await expect(chat.getByText('No model is chosen yet.')).toBeVisible();
    await expect(chat.getByRole('button', { name: 'What time is it?' })).toHaveCount(0);
    await expect(
      chat.getByRole('button', { name: 'Find local servers and their models' }),
    ).toBeVisible();
    await expect(input).toBeDisabled();

    await page.getByRole('combobox', { name: 'Model' }).pressSequentially('fake-model');

    await expect(input).toBeEnabled();
    await expect(chat.getByRole('button', { name: 'What time is it?' })).toBeVisible();
  });
});

test.describe('WebLLM', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('is not offered when WebGPU gives no adapter (a machine without a usable GPU)', async ({
    page,
  }) => {
    // Chromium has navigator.gpu without a usable GPU too; requestAdapter() then resolves null.
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'gpu', {
        value: { requestAdapter: () => Promise.resolve(null) },
      });
    });
    const demo = new DemoPage(page);
    await demo.open({ source: 'demo' });

    const option = page.getByRole('radio', { name: /In the browser \(WebLLM\)/ });
    await expect(option).toBeDisabled();
    await expect(page.getByText('Needs a WebGPU GPU: none is usable here')).toBeVisible();
  });
});
