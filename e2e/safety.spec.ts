import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, FAKE_BASE_URL, resetServer } from './fake-server.js';

test.beforeEach(async () => {
  await resetServer();
});

// Chromium has the HTML Sanitizer API; the second run takes it away, so DOMPurify (loaded only
// where the browser has no sanitiser) must hold the same line.
for (const sanitizer of ['native', 'DOMPurify'] as const) {
  test(`script, event handlers, javascript: links and remote images in model output are inert (${sanitizer} sanitiser)`, async ({
    page,
  }) => {
    const purifyLoads: string[] = [];
    page.on('request', (request) => {
      if (/dompurify|purify/i.test(request.url())) purifyLoads.push(request.url());
    });
    if (sanitizer === 'DOMPurify') {
      await page.addInitScript(() => {
        delete (Element.prototype as { setHTML?: unknown }).setHTML;
      });
    }
    const dialogs: string[] = [];
    const requests: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => requests.push(request.url()));
    const demo = new DemoPage(page);
    await demo.open();
    const payload = [
      'Look: <img src=x onerror="window.__pwned = 1; alert(1)">',
      '<script>window.__pwned = 2; alert(2)</script>',
      '[click me](javascript:window.__pwned=3) and [home](https://example.com/)',
      '<a href="#" onclick="window.__pwned = 4">raw link</a>',
      `![secret](${FAKE_BASE_URL.replace('/v1', '')}/leak.png?data=secret)`,
      '',
      '<iframe src="javascript:alert(5)"></iframe><svg onload="alert(6)"></svg>',
      '',
      'END',
    ].join('\n');
    await enqueue({ text: [payload] });

    await demo.send('Show me HTML');
    await expect(demo.assistant()).toContainText('END');
    await demo.idle();

    const markdown = demo.assistant().locator('.markdown');
    expect(
      await markdown.locator('script, iframe, svg, [onerror], [onclick], [onload]').count(),
    ).toBe(0);
    // Raw HTML is shown as text, not parsed.
    await expect(markdown).toContainText('<img src=x onerror=');
    const links = markdown.locator('a');
    await expect(links.filter({ hasText: 'click me' })).not.toHaveAttribute('href', /.*/);
    await expect(links.filter({ hasText: 'home' })).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(markdown.locator('[part~="blocked-image"]')).toContainText('secret');
    await links.filter({ hasText: 'click me' }).click();

    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(requests.filter((url) => url.includes('leak.png') || url.endsWith('/x'))).toEqual([]);
    // The fallback loads only where it is needed.
    expect(purifyLoads.length > 0).toBe(sanitizer === 'DOMPurify');
  });
}
