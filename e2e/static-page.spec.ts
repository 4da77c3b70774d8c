import { expect, test, type Page } from '@playwright/test';
import { enqueue, FAKE_BASE_URL, recorded, resetServer } from './fake-server.js';
import { startStaticServer } from './static-server.js';
import { startEverythingServer, type RunningServer } from '../test/support/mcp-servers.js';

// `<agent-chat>` from `dist/agent-chat.js` in a static HTML file: a plain file server, no Vite,
// no import map. `npm test` builds `dist/` before the e2e suite.

let server: Awaited<ReturnType<typeof startStaticServer>>;

test.beforeAll(async () => {
  server = await startStaticServer();
});
test.afterAll(async () => {
  await server.close();
});
test.beforeEach(async () => {
  await resetServer();
});

/** Opens a page, failing on any script error or failed request (a bare specifier would be one). */
async function open(page: Page, path: string): Promise<void> {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('requestfailed', (request) =>
    problems.push(`${request.url()} ${request.failure()?.errorText ?? ''}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.url()} ${response.status()}`);
  });
  await page.goto(`${server.url}/e2e/static/${path}`);
  await expect(page.locator('agent-chat').getByRole('textbox', { name: 'Message' })).toBeEnabled();
  expect(problems).toEqual([]);
}

test('the element streams from an OpenAI-compatible server and runs a tool given inline', async ({
  page,
}) => {
  await open(page, `server.html?server=${encodeURIComponent(FAKE_BASE_URL)}`);
  const chat = page.locator('agent-chat');
  await enqueue(
    { toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] },
    { text: 'The answer is **42**.' },
  );

  await chat.getByRole('textbox', { name: 'Message' }).fill('What is 6 * 7?');
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter');

  await expect(chat.locator('section.tool [part~="tool-status"]')).toContainText('Done');
  // The markdown chunk loads from beside agent-chat.js.
  await expect(chat.locator('article.assistant .markdown strong').last()).toHaveText('42');
  const { requests } = await recorded();
  expect(requests).toHaveLength(2);
  expect(requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: '42' });
  // The page gave it no size: the default holds (neither 0 nor grown with the content).
  const box = await chat.boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(320);
  expect(box?.height).toBeLessThanOrEqual(800);
});

test('the history stores and a worker tool load their code from beside dist/agent-chat.js on first use', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.url()} ${response.status()}`);
  });
  const chunks: string[] = [];
  page.on('request', (request) => chunks.push(new URL(request.url()).pathname));
  await page.goto(`${server.url}/e2e/static/stores-and-workers.html`);
  await expect(page.locator('#result')).not.toBeEmpty();
  expect(JSON.parse((await page.locator('#result').textContent()) ?? '')).toEqual({
    title: 'Plan a trip',
    memory: 1,
    answer: 'echo: hey',
  });
  expect(problems).toEqual([]);
  // Not in the first load: each came as a chunk of its own when first used.
  for (const name of ['idb-history-store', 'memory-store', 'live-worker-connection'])
    expect(chunks.some((path) => path.includes(`/dist/agent-chat/${name}-`))).toBe(true);
});

test('the element runs on a scripted model from an inline module script', async ({ page }) => {
  await open(page, 'scripted.html');
  const chat = page.locator('agent-chat');

  await chat.getByRole('textbox', { name: 'Message' }).fill('What is 6 * 7?');
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter');

  await expect(chat.locator('article.assistant .markdown strong').last()).toHaveText('42');
  await expect(chat.locator('section.tool [part~="tool-status"]')).toContainText('Done');
  const box = await chat.boundingBox();
  expect(box?.height).toBe(page.viewportSize()?.height);
});

test.describe('with the sandbox and an MCP server', () => {
  let everything: RunningServer;
  test.beforeAll(async () => {
    everything = await startEverythingServer();
  });
  test.afterAll(async () => {
    await everything.stop();
  });

  test("a page with no bundler runs the JavaScript sandbox and an MCP server's tool from dist/agent-chat.js", async ({
    page,
  }) => {
    const loaded: string[] = [];
    page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
    await open(
      page,
      `sandbox-mcp.html?server=${encodeURIComponent(FAKE_BASE_URL)}&mcp=${encodeURIComponent(everything.url)}`,
    );
    await expect(page.locator('body')).toHaveAttribute('data-tools', /run_javascript .*echo/);
    const chat = page.locator('agent-chat');
    await enqueue(
      {
        toolCalls: [
          { name: 'run_javascript', arguments: { code: '[3, 1, 2].sort().map((x) => x * 7)' } },
        ],
      },
      { toolCalls: [{ name: 'echo', arguments: { message: 'from a plain page' } }] },
      { text: 'Both ran.' },
    );
    await chat.getByRole('textbox', { name: 'Message' }).fill('Sort and echo');
    await chat.getByRole('textbox', { name: 'Message' }).press('Enter');

    await expect(chat.locator('article.assistant').last()).toContainText('Both ran.');
    const { requests } = await recorded();
    expect(requests).toHaveLength(3);
    expect(JSON.parse(requests[1]?.messages.at(-1)?.content ?? 'null')).toMatchObject({
      result: [7, 14, 21],
    });
    expect(requests[2]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: 'Echo: from a plain page',
    });
    // The worker and the engine came from beside agent-chat.js.
    expect(
      loaded.some((path) => /^\/dist\/agent-chat\/sandbox-worker-[\w-]+\.js$/.test(path)),
    ).toBe(true);
    expect(loaded).toContain('/dist/emscripten-module.wasm');
  });
});

// What a model writes, rendered on the plain page by the markdown chunk beside agent-chat.js (our
// own GFM parser since issue 26's fourth session), at a phone's and a desktop's size, light and
// dark; the screenshots go to test-results/screens/ to be looked at.
const RICH_ANSWER = [
  '## Sorting in JavaScript\n\n',
  'Use **`Array.prototype.sort`** with a comparator — see [MDN](https://developer.mozilla.org/):\n\n',
  '1. Copy the array\n2. Sort it:\n   - numbers: `(a, b) => a - b`\n   - strings: `localeCompare`\n\n',
  '| Method | Mutates | Returns |\n|:-------|:-------:|--------:|\n| `sort` | yes | the array |\n| `toSorted` | no | a copy |\n\n',
  '```js\nconst sorted = [3, 1, 2].toSorted((a, b) => a - b);\n```\n\n',
  '> Note: `sort` without a comparator compares *strings*.\n',
];
for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test.describe(`${viewport.name} ${viewport.width}×${viewport.height}, ${colorScheme}`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height }, colorScheme });

      test('a markdown answer with a heading, nested lists, a table, code and a quote renders, and nothing overflows sideways', async ({
        page,
      }) => {
        await open(page, `server.html?server=${encodeURIComponent(FAKE_BASE_URL)}`);
        const chat = page.locator('agent-chat');
        await enqueue({ text: RICH_ANSWER });
        await chat.getByRole('textbox', { name: 'Message' }).fill('How do I sort?');
        await chat.getByRole('textbox', { name: 'Message' }).press('Enter');

        const answer = chat.locator('article.assistant .markdown').last();
        await expect(answer.locator('pre code span').first()).toBeVisible();
        await expect(answer.locator('h2')).toHaveText('Sorting in JavaScript');
        await expect(answer.locator('ol > li')).toHaveCount(2);
        await expect(answer.locator('ol ul > li')).toHaveCount(2);
        await expect(answer.locator('table th')).toHaveText(['Method', 'Mutates', 'Returns']);
        await expect(answer.locator('table td[align="center"]')).toHaveText(['yes', 'no']);
        await expect(answer.locator('a')).toHaveAttribute('href', 'https://developer.mozilla.org/');
        await expect(answer.locator('blockquote em')).toHaveText('strings');
        await page.screenshot({
          path: `test-results/screens/no-build-${viewport.name}-${colorScheme}.png`,
        });

        const log = chat.getByRole('log');
        expect(
          await log.evaluate((element) => element.scrollWidth - element.clientWidth),
        ).toBeLessThanOrEqual(0);
        expect(
          await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          ),
        ).toBeLessThanOrEqual(0);
      });
    });
  }
}
