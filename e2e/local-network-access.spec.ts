import { expect, test } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../test/support/chromium.js';
import { startFakeModelServer, type FakeModelServer } from '../test/support/fake-model-servers.js';
import { DemoPage } from './demo-page.js';
import { VITE_PORT } from './playwright.config.js';

// Issue 25: Chrome's Local Network Access (142+) gates a public page's requests to this machine
// behind a permission. Chromium's `--ip-address-space-overrides` makes the demo's own address
// count as public, so the real gate runs here: headless Chromium answers its prompt with a
// denial, exactly as a person who clicks "Block" would leave it. The model server must receive
// nothing, and the error must lead with the permission and where to allow it.
test.use({
  launchOptions: {
    ...(chromiumPath ? { executablePath: chromiumPath } : {}),
    args: [...chromiumArgs, `--ip-address-space-overrides=127.0.0.1:${VITE_PORT}=public`],
  },
});

let server: FakeModelServer | undefined;
test.afterEach(async () => {
  await server?.close();
  server = undefined;
});

test('a denied permission leads the error with where to allow it; the server receives nothing', async ({
  page,
}) => {
  server = await startFakeModelServer({ kind: 'ollama' });
  const demo = new DemoPage(page);
  await demo.open({ baseURL: `${server.url}/v1`, model: 'qwen3:4b', tools: '' });
  await demo.send('Hello');

  const banner = demo.chat.getByRole('alert');
  await expect(banner).toContainText('Local Network Access permission is denied');
  // Visible, not folded: the fix line names where to allow it.
  await expect(banner.locator('[part~="error-fix"]')).toContainText('Local network access → Allow');
  await expect(banner.locator('[part~="error-fix"]')).toBeVisible();
  expect(
    await page.evaluate(
      async () =>
        (await navigator.permissions.query({ name: 'local-network-access' as PermissionName }))
          .state,
    ),
  ).toBe('denied');
  expect(server.requests).toEqual([]);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const [name, size] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `test-results/screens/lna-denied-${name}-${colorScheme}.png` });
    }
  }
});

test('once the permission is granted the same page talks to the server', async ({
  page,
  context,
}) => {
  server = await startFakeModelServer({ kind: 'ollama' });
  await context.grantPermissions(['local-network-access'], {
    origin: `http://127.0.0.1:${VITE_PORT}`,
  });
  const demo = new DemoPage(page);
  await demo.open({ baseURL: `${server.url}/v1`, model: 'qwen3:4b', tools: '' });
  await demo.send('Hello');
  await expect(demo.assistant()).not.toBeEmpty();
  await demo.idle();
  await expect(demo.chat.getByRole('alert')).toHaveCount(0);
  expect(server.requests.filter((line) => !line.startsWith('OPTIONS '))[0]).toBe(
    'POST /v1/chat/completions',
  );
});
