import { createHash } from 'node:crypto';
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

// ── The person's path: no server, no GPU, the demo's own default model from Hugging Face ──

/** The demo's default CPU model, as demo/in-page-engines.ts names it. */
const HF_REPO = 'bartowski/SmolLM2-135M-Instruct-GGUF';
const HF_FILE = 'SmolLM2-135M-Instruct-Q4_K_M.gguf';
/** The tiny random-weight model, as it is: the tool turn below does not depend on its weights. */
const HF_GGUF = Buffer.from(tinyLlamaGguf());
const SHA256 = createHash('sha256').update(HF_GGUF).digest('hex');
const RESOLVE_URL = `https://huggingface.co/${HF_REPO}/resolve/main/${HF_FILE}`;
const CORS = { 'access-control-allow-origin': '*' };

/**
 * Hugging Face, offline: answers what the Hub answers for the demo's default model (the
 * resolve URL sends the bytes — the Hub redirects it to its CDN, a hop Playwright's routing
 * does not see, so it is answered in place; the raw URL gives the LFS pointer), with the tiny
 * GGUF as the file. Records every request; holds the file's bytes until
 * `release()` (so the download can be seen under way); `offline()` then fails every request
 * as a computer without network does.
 */
async function fakeHuggingFace(page: Page) {
  const requests: string[] = [];
  let online = true;
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.context().route(/^https:\/\/huggingface\.co\//, async (route) => {
    const request = route.request();
    const url = request.url();
    requests.push(`${request.method()} ${url}`);
    if (!online) return route.abort('internetdisconnected');
    if (url === `https://huggingface.co/${HF_REPO}/raw/main/${HF_FILE}`)
      return route.fulfill({
        headers: { ...CORS, 'content-type': 'text/plain' },
        body: `version https://git-lfs.github.com/spec/v1\noid sha256:${SHA256}\nsize ${HF_GGUF.length}\n`,
      });
    if (url === RESOLVE_URL) {
      if (request.method() === 'GET') await released;
      return route.fulfill({
        headers: { ...CORS, 'content-type': 'application/octet-stream', etag: `"${SHA256}"` },
        body: HF_GGUF,
      });
    }
    return route.fulfill({ status: 404, headers: CORS, body: 'Entry not found' });
  });
  return {
    requests,
    release,
    offline: () => {
      online = false;
    },
  };
}

/** Desktop and phone, light and dark: test-results/e2e/cpu-<name>-<size>-<scheme>.png. */
async function screenshots(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/e2e/cpu-${name}-${size}-${colorScheme}.png` });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test("no server, no GPU: the demo's CPU engine downloads its model from Hugging Face with progress, chats with a tool, and a reload needs no network", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const hub = await fakeHuggingFace(page);
  const demo = new DemoPage(page);
  // One tool (no approval) that the model must call (`toolChoice=required`: the engine's
  // constrained output holds calls of it only, whatever the weights lean to), one round of tools,
  // the system prompt; the sampling seed only keeps the screenshots the same from run to run.
  await page.goto(
    `/?conversation=e2e-hf-${Date.now()}&tools=notes&approval=&maxIterations=1&toolChoice=required&seed=7&system=${encodeURIComponent('You keep notes for the user.')}`,
  );
  await page.getByRole('radio', { name: /In the browser — CPU/ }).check();
  await expect(page.getByRole('combobox', { name: 'Model to download' })).toHaveValue(
    'SmolLM2-135M-Instruct',
  );
  await expect(page.getByRole('option', { name: 'SmolLM2 135M · 70 MB' })).toBeAttached();
  await page.getByRole('button', { name: 'Download and start' }).click();

  const bar = page.getByRole('progressbar', { name: 'Model download' });
  await expect(bar).toBeVisible();
  await expect(page.getByText(/Downloading… \d+ %/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  // The chat says so too (on a phone the settings are out of sight).
  await expect(
    demo.chat.getByRole('status').getByText(/Downloading the model… \d+ %/),
  ).toBeVisible();
  await screenshots(page, 'downloading');
  hub.release();
  await expect(page.getByText('SmolLM2-135M-Instruct is running in this page.')).toBeVisible({
    timeout: 60_000,
  });
  expect(hub.requests).toEqual([
    `HEAD ${RESOLVE_URL}`,
    `GET https://huggingface.co/${HF_REPO}/raw/main/${HF_FILE}`, // the LFS pointer: the file's sha256
    `GET ${RESOLVE_URL}`,
  ]);

  // One round of tools (maxIterations=1): the model must call, so the run ends at the round
  // limit rather than with an answer. Each call's arguments hold to the tool's schema, but what
  // a random model writes there is its own: `add` without a text is the tool's error, shown in
  // the card as a result is.
  await demo.send('Please note that I need milk.');
  await expect(demo.chat.locator('[part~="send-button"]')).toBeVisible({ timeout: 90_000 });
  const answer = demo.assistant();
  const cards = answer.locator('section.tool');
  await expect(cards.first().locator('.tool-name')).toHaveText('notes');
  await expect(answer.locator('section.tool:not(.done, .error)')).toHaveCount(0);
  for (const card of await cards.all())
    await expect(card.locator(`[part~="tool-result"], [part~="tool-error"]`).first()).toBeVisible();
  await expect(answer).toContainText('Stopped: the tool-round limit was reached.');
  await expect(demo.chat.getByRole('alert')).toHaveCount(0);
  await screenshots(page, 'tool-call');

  // A reload with no network at all: the model comes from this browser's storage (OPFS).
  hub.offline();
  const before = hub.requests.length;
  await page.reload();
  await expect(page.getByRole('radio', { name: /In the browser — CPU/ })).toBeChecked();
  await page.getByRole('button', { name: 'Download and start' }).click();
  await expect(page.getByText('SmolLM2-135M-Instruct is running in this page.')).toBeVisible({
    timeout: 60_000,
  });
  expect(hub.requests.slice(before)).toEqual([]);
  await expect(demo.chat.getByText('CPU · SmolLM2-135M-Instruct')).toBeVisible();
});
