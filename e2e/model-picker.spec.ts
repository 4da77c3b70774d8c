import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startFakeModelServer, type FakeModelServer } from '../test/support/fake-model-servers.js';
import { startStaticServer } from './static-server.js';

// The model picker (`<agent-model-picker>` in `<agent-chat>`'s header slot, dist/agent-chat.js, no
// build step) against a fake Ollama:
// the list, a download with its progress bar, "Check this server", the unknown-model error's
// "Pull MODEL", axe, and screenshots (light, dark, phone) in test-results/e2e/.

let pages: Awaited<ReturnType<typeof startStaticServer>>;
let ollama: FakeModelServer;

test.beforeAll(async () => {
  pages = await startStaticServer();
});
test.afterAll(async () => {
  await pages.close();
});
test.beforeEach(async () => {
  // Slow enough steps (60 ms) that the bar is seen moving; 400 ms of verification before "success".
  ollama = await startFakeModelServer({
    kind: 'ollama',
    downloads: {
      'llama3.2:1b': { stepMs: 150, verifyMs: 400 },
      'smollm2:135m': { stepMs: 20, verifyMs: 50 },
    },
  });
});
test.afterEach(async () => {
  await ollama.close();
});

async function open(page: Page, model: string): Promise<void> {
  await page.goto(
    `${pages.url}/e2e/static/models.html?server=${encodeURIComponent(`${ollama.url}/v1`)}&model=${encodeURIComponent(model)}`,
  );
  await expect(page.locator('agent-chat').getByRole('textbox', { name: 'Message' })).toBeEnabled();
}

async function seriousViolations(page: Page): Promise<unknown[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      nodes: violation.nodes.map(
        (node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`,
      ),
    }));
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the picker lists the server's models, downloads one and checks the server (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await open(page, 'qwen3:4b');
    const chat = page.locator('agent-chat');
    await chat.getByRole('button', { name: 'qwen3:4b: choose a model' }).click();
    const picker = chat.getByRole('dialog', { name: 'Models on this server' });
    await expect(picker.getByText('Ollama 0.12.6')).toBeVisible();
    const options = picker.locator('[part~="model-option"]');
    // Loaded first, each with its size and what it can do.
    await expect(options).toHaveText([
      /qwen3:4b\s*2.5 GB\s*loaded\s*tools\s*thinking/,
      /gemma3:4b\s*3.3 GB\s*vision/,
    ]);
    await expect(options.first()).toHaveAttribute('aria-current', 'true');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `test-results/e2e/model-picker-${colorScheme}.png` });

    await picker.getByRole('button', { name: 'Get a model…' }).click();
    await picker.getByRole('textbox', { name: 'Model name' }).fill('llama3.2:1b');
    await picker.getByRole('button', { name: 'Download' }).click();
    const bar = picker.getByRole('progressbar', { name: 'Downloading llama3.2:1b' });
    await expect(picker.getByRole('status')).toHaveText(
      /^\d+ % · [\d.]+ MB of 7 MB · [\d.]+ (kB|MB)\/s$/,
    );
    await expect.poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(20);
    await page.screenshot({ path: `test-results/e2e/model-picker-pull-${colorScheme}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    // Done: the picker closes and the chat uses the new model.
    await expect(chat.getByRole('button', { name: 'llama3.2:1b: choose a model' })).toBeVisible({
      timeout: 10_000,
    });
    expect(ollama.models.map((model) => model.name)).toContain('llama3.2:1b');

    await chat.getByRole('button', { name: 'llama3.2:1b: choose a model' }).click();
    await picker.getByRole('button', { name: 'Check this server' }).click();
    const report = picker.getByRole('list', { name: 'Server check' });
    // In a page, CORS and Local Network Access are checked too: 16 rows.
    await expect(report.locator('li')).toHaveCount(16, { timeout: 10_000 });
    await expect(report).toContainText(
      `The server lets this page (${pages.url}) read its answers.`,
    );
    await expect(report).toContainText('Native tool_calls in the stream (2 calls).');
    // Every failed check says how to fix it (the fake Ollama cuts a long prompt: one fails).
    const rows = await report.locator('li').allTextContents();
    const failed = rows.filter((row) => row.includes('Failed:'));
    expect(failed.length).toBeGreaterThan(0);
    for (const row of failed) expect(row).toContain('Fix: ');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `test-results/e2e/model-picker-report-${colorScheme}.png` });
  });
}

test('a download can be cancelled; picking a model switches the chat to it', async ({ page }) => {
  await open(page, 'qwen3:4b');
  const chat = page.locator('agent-chat');
  await chat.getByRole('button', { name: /choose a model/ }).click();
  const picker = chat.getByRole('dialog', { name: 'Models on this server' });
  await picker.getByRole('button', { name: 'Get a model…' }).click();
  await picker.getByRole('textbox', { name: 'Model name' }).fill('llama3.2:1b');
  await picker.getByRole('button', { name: 'Download' }).click();
  await expect
    .poll(async () => Number(await picker.getByRole('progressbar').getAttribute('value')))
    .toBeGreaterThan(10);
  await picker.getByRole('button', { name: 'Cancel' }).click();
  await expect(picker.getByRole('status')).toHaveText('The download stopped: Cancelled');
  expect(ollama.models.map((model) => model.name)).not.toContain('llama3.2:1b');

  const changes: string[] = [];
  await page.exposeFunction('modelChanged', (model: string) => changes.push(model));
  await page.evaluate(() =>
    document
      .querySelector('agent-chat')
      ?.addEventListener(
        'model-change',
        (event) =>
          void (window as unknown as { modelChanged: (model: string) => void }).modelChanged(
            (event as CustomEvent<{ model: string }>).detail.model,
          ),
      ),
  );
  await picker.getByRole('button', { name: /gemma3:4b/ }).click();
  await expect(chat.getByRole('button', { name: 'gemma3:4b: choose a model' })).toBeVisible();
  expect(changes).toEqual(['gemma3:4b']);
  await chat.getByRole('textbox', { name: 'Message' }).fill('Hi');
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect.poll(() => ollama.chats.map((body) => body.model)).toEqual(['gemma3:4b']);
});

test('an unknown model offers "Pull MODEL", which downloads it and retries with it (phone)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, 'smollm2:135m');
  const chat = page.locator('agent-chat');
  await chat.getByRole('textbox', { name: 'Message' }).fill('Hello');
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter');
  const pull = chat.getByRole('button', { name: 'Pull smollm2:135m' });
  await expect(pull).toBeVisible();
  await page.screenshot({ path: 'test-results/e2e/model-picker-unknown-phone.png' });
  await pull.click();
  await expect(chat.getByRole('dialog', { name: 'Models on this server' })).toBeVisible();
  await expect(chat.getByRole('button', { name: 'smollm2:135m: choose a model' })).toBeVisible();
  // The picker closed with the model on the server; the error is gone.
  await expect(chat.getByRole('button', { name: 'Pull smollm2:135m' })).toHaveCount(0);
  // The conversation stays: a new Client on the same history, with the new model.
  await expect(chat.getByRole('log').locator('article.user')).toHaveCount(1);
  expect(ollama.models.map((model) => model.name)).toContain('smollm2:135m');
  await chat.getByRole('button', { name: 'smollm2:135m: choose a model' }).click();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/e2e/model-picker-phone.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/e2e/model-picker-phone-dark.png' });
  // The report on a phone: the panel scrolls, and stays inside the screen.
  const picker = chat.getByRole('dialog', { name: 'Models on this server' });
  await picker.getByRole('button', { name: 'Check this server' }).click();
  const report = picker.getByRole('list', { name: 'Server check' });
  await expect(report).toContainText('response-format', { timeout: 10_000 });
  const box = await picker.boundingBox();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390).toBe(true);
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(844);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: 'test-results/e2e/model-picker-phone-report.png' });
  await report.locator('li').last().scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/e2e/model-picker-phone-report-end.png' });
});
