import { expect, test } from '@playwright/test';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeModelServerKind,
} from '../test/support/fake-model-servers.js';
import { DemoPage } from './demo-page.js';

// Issue 25: a working setup logs no failed request in the browser's console (each 404 or CORS
// failure is a red line there), and nothing is asked before the first chat request of a
// short conversation — against a fake of each local server, with CORS open as each is set up.
let server: FakeModelServer | undefined;
test.afterEach(async () => {
  await server?.close();
  server = undefined;
});

for (const kind of ['ollama', 'llama.cpp', 'lmstudio-v1', 'vllm'] satisfies FakeModelServerKind[]) {
  test(`${kind}: two answers, no failed request, the chat request first`, async ({ page }) => {
    server = await startFakeModelServer({ kind });
    const failures: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`console: ${message.text()}`);
    });
    page.on('requestfailed', (request) => failures.push(`failed: ${request.url()}`));
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()}: ${response.url()}`);
    });
    const demo = new DemoPage(page);
    // No tools: the fake model would call its get_weather, which the demo lacks.
    await demo.open({ baseURL: `${server.url}/v1`, model: 'qwen3:4b', tools: '' });
    await demo.send('Hello');
    await expect(demo.assistant()).not.toBeEmpty();
    await demo.send('And again');
    await expect(demo.log.locator('article.assistant')).toHaveCount(2);
    await demo.idle();
    const asked = server.requests.filter((line) => !line.startsWith('OPTIONS '));
    expect(asked[0]).toBe('POST /v1/chat/completions');
    expect(failures).toEqual([]);
  });
}
