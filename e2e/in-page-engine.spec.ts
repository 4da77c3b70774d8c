import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { tinyLlamaGguf } from '../test/support/gguf/tiny-llama.js';
import { DemoPage } from './demo-page.js';

// The demo's "In the browser — CPU" engine (real wllama, WebAssembly, on the CPU) with a model
// the user brings: a GGUF URL (downloaded with progress, cancellable, kept in the browser's
// storage so a reload uses no network) or a GGUF file picked from the disk. The model is the
// tiny random-weight one the tests write, served here from 127.0.0.1: no download from a hub.

const GGUF = Buffer.from(tinyLlamaGguf());
let server: Server;
let base = '';
/** Requests for each path. */
const served = new Map<string, number>();

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    served.set(path, (served.get(path) ?? 0) + 1);
    const headers = {
      'access-control-allow-origin': '*',
      'content-type': 'application/octet-stream',
      'content-length': String(GGUF.length),
    };
    if (request.method === 'HEAD') return void response.writeHead(200, headers).end();
    if (path === '/slow.gguf') {
      // A download that trickles (1 KB every 100 ms, bounded) until the user cancels it.
      response.writeHead(200, headers);
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= GGUF.length || response.destroyed) {
          clearInterval(timer);
          response.end();
          return;
        }
        response.write(GGUF.subarray(sent, (sent += 1024)));
      }, 100);
      response.on('close', () => clearInterval(timer));
      return;
    }
    response.writeHead(200, headers).end(GGUF);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function openCpu(page: Page): Promise<DemoPage> {
  const demo = new DemoPage(page);
  await page.goto(`/?source=cpu&conversation=e2e-cpu-${Date.now()}`);
  await page.getByText('Or your own GGUF model').click();
  return demo;
}

/**
 * Sends a message and stops the answer once the engine has streamed some of it: a random-weight
 * model does not know when to stop, so it would write up to the window's end.
 */
async function chatAndStop(demo: DemoPage, text: string): Promise<void> {
  await demo.send(text);
  await expect(demo.assistant()).not.toHaveText('', { timeout: 30_000 });
  await demo.chat.getByRole('button', { name: 'Stop' }).click();
  await demo.idle();
  await expect(demo.assistant()).toContainText('Stopped.');
}

async function loadUrl(page: Page, url: string): Promise<void> {
  await page.getByLabel('GGUF model URL').fill(url);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
}

test.describe.configure({ timeout: 90_000 });

test('a GGUF URL loads with progress, chats, and a reload loads it from the browser storage', async ({
  page,
}) => {
  const name = `tiny-${Date.now()}`;
  let demo = await openCpu(page);
  await loadUrl(page, `${base}/${name}.gguf`);
  await expect(page.getByText(`${name} is running in this page.`)).toBeVisible({
    timeout: 60_000,
  });
  await expect(demo.chat.getByText(`CPU · ${name}`)).toBeVisible();
  await chatAndStop(demo, 'Hello');
  await expect(demo.chat.getByRole('alert')).toHaveCount(0);
  const downloads = [...served].filter(([path]) => path === `/${name}.gguf`)[0]?.[1] ?? 0;
  expect(downloads).toBeGreaterThan(0);

  await page.reload();
  demo = await openCpu(page);
  await loadUrl(page, `${base}/${name}.gguf`);
  await expect(page.getByText(`${name} is running in this page.`)).toBeVisible({
    timeout: 60_000,
  });
  // The bytes came from the cache (OPFS), not the server.
  expect(served.get(`/${name}.gguf`)).toBe(downloads);
});

test('a download can be cancelled; a picked GGUF file loads and chats', async ({ page }) => {
  const demo = await openCpu(page);
  await loadUrl(page, `${base}/slow.gguf`);
  const bar = page.getByRole('progressbar', { name: 'Model download' });
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert')).toHaveText('Download cancelled.');

  await page.getByLabel('A GGUF file on this computer').setInputFiles({
    name: 'picked.gguf',
    mimeType: 'application/octet-stream',
    buffer: GGUF,
  });
  await expect(page.getByText('picked is running in this page.')).toBeVisible({
    timeout: 60_000,
  });
  await chatAndStop(demo, 'Hi');
  await expect(demo.chat.getByRole('alert')).toHaveCount(0);
});
