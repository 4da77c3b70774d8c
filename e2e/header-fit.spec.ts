import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { tinyLlamaGguf } from '../test/support/gguf/tiny-llama.js';
import { DemoPage } from './demo-page.js';
import { resetServer } from './fake-server.js';

// What the chat's header slot holds in the demo, at 390 × 844 and 1280 × 800, light and dark
// (screenshots in test-results/header-fit/): the model picker's keyboard focus ring is drawn
// around its button and nothing clips it; an in-page engine's badge fits the header (or ends
// in an ellipsis with the full name in its title) instead of being cut off.

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/**
 * What hides part of `element`'s box grown by `reach` px on each side (its focus ring), or
 * `undefined` when all of it shows: the viewport's edges, and every ancestor on the way to the
 * document (through slots and shadow roots) that clips its content, at its padding box
 * (`overflow: hidden`) or that grown by `overflow-clip-margin` (`overflow: clip`).
 */
async function clipped(locator: Locator, reach: number): Promise<string | undefined> {
  return locator.evaluate((element, reach) => {
    const box = element.getBoundingClientRect();
    const ring = {
      left: box.left - reach,
      top: box.top - reach,
      right: box.right + reach,
      bottom: box.bottom + reach,
    };
    const outside = (edge: typeof ring) =>
      ring.left < edge.left - 0.5 ||
      ring.top < edge.top - 0.5 ||
      ring.right > edge.right + 0.5 ||
      ring.bottom > edge.bottom + 0.5;
    if (outside({ left: 0, top: 0, right: innerWidth, bottom: innerHeight }))
      return 'outside the viewport';
    const parentOf = (node: Element): Element | null => {
      if (node.assignedSlot) return node.assignedSlot;
      if (node.parentElement) return node.parentElement;
      const root = node.getRootNode();
      return root instanceof ShadowRoot ? root.host : null;
    };
    for (let ancestor = parentOf(element); ancestor; ancestor = parentOf(ancestor)) {
      const style = getComputedStyle(ancestor);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const outer = ancestor.getBoundingClientRect();
      const margin =
        style.overflowX === 'clip' && style.overflowY === 'clip'
          ? parseFloat(style.overflowClipMargin) || 0
          : 0;
      const edge = {
        left: outer.left + parseFloat(style.borderLeftWidth) - margin,
        top: outer.top + parseFloat(style.borderTopWidth) - margin,
        right: outer.right - parseFloat(style.borderRightWidth) + margin,
        bottom: outer.bottom - parseFloat(style.borderBottomWidth) + margin,
      };
      if (outside(edge))
        return `clipped by ${ancestor.localName}${ancestor.className ? `.${ancestor.className}` : ''} (overflow: ${style.overflowX})`;
    }
    return undefined;
  }, reach);
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/header-fit/${name}.png` });
}

test.beforeEach(async () => {
  await resetServer();
});

for (const viewport of VIEWPORTS) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`the model picker's focus ring is drawn around its button and nothing clips it (${viewport.name}, ${colorScheme})`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      const demo = new DemoPage(page);
      await demo.open();
      const button = demo.chat.locator('[part~="model-button"]');
      await expect(button).toBeVisible();
      // Reached with the keyboard, so :focus-visible holds: from the control before it.
      const before = demo.chat.locator('[part~="sidebar-button"]');
      await before.focus();
      await page.keyboard.press('Tab');
      await expect(button).toBeFocused();
      await screenshot(page, `picker-focus-${viewport.name}-${colorScheme}`);

      const ring = await button.evaluate((element) => {
        const style = getComputedStyle(element);
        return {
          style: style.outlineStyle,
          width: parseFloat(style.outlineWidth),
          offset: parseFloat(style.outlineOffset),
        };
      });
      expect(ring.style).not.toBe('none');
      expect(ring.width).toBeGreaterThanOrEqual(2);
      // Around the button, as on the chat's other buttons: not drawn inside it over its text.
      expect(ring.offset).toBeGreaterThanOrEqual(0);
      expect(await clipped(button, ring.width + ring.offset)).toBeUndefined();
    });
  }
}

test.describe("an in-page engine's badge in the header", () => {
  let server: Server;
  let base = '';
  const gguf = Buffer.from(tinyLlamaGguf());

  test.beforeAll(async () => {
    server = createServer((request, response) => {
      const headers = {
        'access-control-allow-origin': '*',
        'content-type': 'application/octet-stream',
        'content-length': String(gguf.length),
      };
      if (request.method === 'HEAD') return void response.writeHead(200, headers).end();
      response.writeHead(200, headers).end(gguf);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('fits the header on a phone and a desktop, or ends in an ellipsis with the full name in its title', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    // The demo's default CPU model's name (the file is the tiny test model, served here).
    const name = 'SmolLM2-135M-Instruct';
    // No tools: one plain answer.
    await page.goto(`/?source=cpu&tools=&approval=&conversation=e2e-badge-${Date.now()}`);
    await page.getByText('Or your own GGUF model').click();
    await page.getByLabel('GGUF model URL').fill(`${base}/${name}.gguf`);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect(page.getByText(`${name} is running in this page.`)).toBeVisible({
      timeout: 60_000,
    });
    const badge = page.locator('agent-chat .chat-title .badge');
    await expect(badge).toHaveText(`CPU · ${name}`);
    // One whole answer (gibberish, up to an end token or the window), so the header shows the
    // context meter too, as after any answer: the badge has the least room then.
    const demo = new DemoPage(page);
    await demo.send('Hello');
    await expect(demo.chat.locator('[part~="send-button"]')).toBeVisible({ timeout: 60_000 });
    await expect(demo.chat.locator('[part~="context-meter"]')).toBeVisible();

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await screenshot(page, `cpu-badge-${viewport.name}-${colorScheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      // The badge's own box (its border and rounded ends) shows whole.
      expect(await clipped(badge, 0), viewport.name).toBeUndefined();
      const fit = await badge.evaluate((element) => ({
        overflows: element.scrollWidth > element.clientWidth,
        ellipsis: getComputedStyle(element).textOverflow === 'ellipsis',
        title: element.getAttribute('title'),
      }));
      // Its text fits, or is cut with an ellipsis and the full name is in its title.
      if (fit.overflows)
        expect(fit, viewport.name).toEqual({ ...fit, ellipsis: true, title: `CPU · ${name}` });
      // The settings column's CPU panel, its own-model part open, holds its select, file
      // input, URL row and notes inside its border (they once spilled past the column).
      const spill = await page
        .locator('.settings .panel')
        .first()
        .evaluate((panel) => {
          const edge = panel.getBoundingClientRect().right;
          return [...panel.querySelectorAll('*')]
            .filter((element) => element.getBoundingClientRect().right > edge + 0.5)
            .map(
              (element) => element.localName + (element.className ? `.${element.className}` : ''),
            );
        });
      expect(spill, viewport.name).toEqual([]);
    }
  });
});
