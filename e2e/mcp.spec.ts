import { expect, test } from '@playwright/test';
import {
  startEverythingServer,
  startHttpServer,
  type RunningServer,
} from '../test/support/mcp-servers.js';
import { DemoPage } from './demo-page.js';
import { enqueue, recorded, resetServer } from './fake-server.js';

let server: RunningServer;

test.beforeAll(async () => {
  server = await startEverythingServer();
});

test.afterAll(async () => {
  await server.stop();
});

test.beforeEach(async () => {
  await resetServer();
});

test('<agent-chat> calls a tool of an MCP server connected by URL in the demo', async ({
  page,
}) => {
  const demo = new DemoPage(page);
  await demo.open();
  const panel = page.locator('demo-mcp-panel');
  await panel.getByRole('textbox', { name: 'MCP server URL' }).fill(server.url);
  await panel.getByRole('button', { name: 'Connect' }).click();

  await expect(panel.locator('.mcp-server')).toContainText('streamable-http');
  const echo = panel.locator('.mcp-tools li').filter({ hasText: 'echo' }).first();
  // The server's annotation is shown, not trusted: the call asks until the user says otherwise.
  await expect(echo).toContainText('server says read-only');
  await expect(echo.getByRole('checkbox')).toBeChecked();
  await echo.getByRole('checkbox').uncheck();

  await enqueue(
    { toolCalls: [{ name: 'echo', arguments: { message: 'from e2e' } }] },
    { text: 'The server echoed it.' },
  );
  await demo.send('Echo "from e2e" with the MCP server');

  const card = demo.toolCard('echo');
  await expect(card.locator('[part~="tool-result"]')).toContainText('Echo: from e2e');
  await expect(demo.assistant()).toContainText('The server echoed it.');
  const { requests } = await recorded();
  expect(requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Echo: from e2e' });
});

test('the MCP server URL stays in its box after a reload', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open();
  const panel = page.locator('demo-mcp-panel');
  await panel.getByRole('textbox', { name: 'MCP server URL' }).fill(server.url);
  await panel.getByRole('button', { name: 'Connect' }).click();
  await expect(panel.locator('.mcp-server')).toContainText('streamable-http');

  await page.reload();
  await expect(panel.getByRole('textbox', { name: 'MCP server URL' })).toHaveValue(server.url);
});

test('a wrong MCP URL shows what to check, as text', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open();
  const panel = page.locator('demo-mcp-panel');
  const gone = await startHttpServer((_request, response) => response.end());
  await gone.stop(); // its port is free again: nothing answers there
  await panel.getByRole('textbox', { name: 'MCP server URL' }).fill(gone.url);
  await panel.getByRole('button', { name: 'Connect' }).click();
  await expect(panel.getByRole('alert')).toContainText('Could not reach the MCP server');
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`the settings column at 1280 × 800, ${colorScheme}`, () => {
    test.use({ viewport: { width: 1280, height: 800 }, colorScheme });

    test('the MCP tool list lines up in two columns, and the Probe button is not clipped', async ({
      page,
    }) => {
      const demo = new DemoPage(page);
      await demo.open();
      const panel = page.locator('demo-mcp-panel');
      await panel.getByRole('textbox', { name: 'MCP server URL' }).fill(server.url);
      await panel.getByRole('button', { name: 'Connect' }).click();
      await expect(panel.locator('.mcp-server')).toContainText('streamable-http');
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/screens/mcp-panel-desktop-${colorScheme}.png` });

      // Every row's checkbox sits at one x, and every name starts at one x.
      const columns = await panel.locator('.mcp-tools li').evaluateAll((items) =>
        items.map((item) => ({
          name: Math.round(item.querySelector('strong')?.getBoundingClientRect().left ?? -1),
          box: Math.round(item.querySelector('input')?.getBoundingClientRect().left ?? -1),
        })),
      );
      expect(columns.length).toBeGreaterThan(3);
      expect(new Set(columns.map((column) => column.name)).size).toBe(1);
      expect(new Set(columns.map((column) => column.box)).size).toBe(1);

      const probe = page.getByRole('button', { name: 'Probe' });
      const fits = await probe.evaluate((button) => {
        const form = button.parentElement?.getBoundingClientRect();
        const box = button.getBoundingClientRect();
        return {
          clipped: button.scrollWidth > button.clientWidth,
          inside: form !== undefined && box.right <= form.right + 0.5,
        };
      });
      expect(fits).toEqual({ clipped: false, inside: true });
    });
  });
}
