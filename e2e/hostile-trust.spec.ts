import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type * as OpenAgent from '../src/index.js';
import { DemoPage } from './demo-page.js';

type Runtime = typeof OpenAgent;
import { enqueue, resetServer } from './fake-server.js';

// Issue 27, through the real UI: what a shared file or a message can make the page fetch. A
// loopback attacker server on a random port logs every request that reaches it: none may.

let attacker: Server;
let attackerOrigin = '';
const reached: string[] = [];

test.beforeAll(async () => {
  attacker = createServer((request, response) => {
    reached.push(`${request.method ?? '?'} ${request.url ?? ''}`);
    response.setHeader('content-type', 'image/png');
    response.end();
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`; // a TCP server's address
});

test.afterAll(async () => {
  attacker.closeAllConnections();
  await new Promise<void>((resolve) => attacker.close(() => resolve()));
});

test.beforeEach(async () => {
  await resetServer();
  reached.length = 0;
});

test.afterEach(async ({ page }, testInfo) => {
  // Let a request the page started land before the log is read (the report quotes it).
  await page.waitForLoadState('networkidle').catch(() => undefined);
  console.log(`attacker log (${testInfo.title.slice(0, 7)}): ${JSON.stringify(reached)}`);
});

const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

test('fact 5: a user image pointing at the attacker, in an imported file and in a live message, is not fetched', async ({
  page,
}) => {
  const demo = new DemoPage(page);
  await demo.open();
  const file = JSON.stringify({
    format: 'open-agent-conversation',
    version: 2,
    id: 'shared-with-image',
    title: 'Shared',
    createdAt: 1,
    updatedAt: 2,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look at this' },
          { type: 'image_url', image_url: { url: `${attackerOrigin}/imported.png?who=reader` } },
          { type: 'image_url', image_url: { url: PIXEL } },
        ],
      },
      { role: 'assistant', content: 'A picture.' },
    ],
  });
  // The runtime as the demo's dev server serves it (a file of the project, outside its root).
  const entry = `/@fs${new URL('../src/index.ts', import.meta.url).pathname}`;
  const id = await page.evaluate(
    async ([text, path]) => {
      const runtime = (await import(path)) as Runtime;
      const history = runtime.indexedDBHistory();
      const imported = await history.importConversation(text);
      history.close();
      return imported;
    },
    [file, entry] as const,
  );
  await demo.open({ conversation: id });
  await expect(demo.assistant()).toContainText('A picture.');
  const user = demo.log.locator('article.user').first();
  // The data: image shows; the remote one is a placeholder that says why.
  await expect(user.locator('img[part~="image"]')).toHaveCount(1);
  await expect(user.locator('[part~="blocked-image"]')).toHaveCount(1);

  await enqueue({ text: 'Another picture.' });
  await page.evaluate(async (url) => {
    const chat = document.querySelector('agent-chat') as unknown as {
      send(prompt: unknown): Promise<unknown>;
    };
    await chat.send([
      { type: 'text', text: 'and this' },
      { type: 'image_url', image_url: { url } },
    ]);
  }, `${attackerOrigin}/live.png?who=sender`);
  await expect(demo.assistant()).toContainText('Another picture.');
  await page.reload();
  await expect(demo.assistant()).toContainText('Another picture.');
  await expect(demo.log.locator('[part~="blocked-image"]')).toHaveCount(2);
  expect(reached).toEqual([]);
});
