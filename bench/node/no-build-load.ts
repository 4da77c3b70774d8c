import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { benchCacheDir } from '../support/bench-page.js';
import { chromiumPath, launchChromium } from '../support/chromium.js';
import { checked, info, skipped, type Figure } from '../support/figure.js';
import { listenOnLoopback, serveFile } from '../support/static-server.js';

/** A plain HTML page, as the README's "no build step" section writes it, on its own server. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>no build</title>
<script type="module" src="./dist/agent-chat.js"></script></head>
<body><agent-chat base-url="/v1" model="bench"></agent-chat></body></html>
`;

/** One SSE answer in markdown, as a local server streams it (the code block loads one grammar). */
const ANSWER = ['The answer is **42**.\n\n', '```js\n', 'console.log(6 * 7);\n', '```\n'];

/** One file the page fetched, with its size as a server sends it (gzip -9). */
interface Fetched {
  path: string;
  gzipped: number;
}

/**
 * Figure 2b: the no-build path — `dist/agent-chat.js` built as `npm run build` builds it, loaded
 * by a plain HTML page from a static server (no bundler, no import map) — measured from the
 * browser's own requests: what it fetches until the element is usable (first paint), and until
 * the first answer (markdown with a code block) is rendered; bytes gzip -9 per file, and the
 * number of requests. Beside the bundled-app figures of {@link bundleSizes}.
 */
export async function noBuildLoad(): Promise<Figure[]> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) {
    return [
      skipped({
        id: 'size.no-build',
        label: 'size: no-build page',
        unit: '',
        note: 'no Chromium at /usr/bin/chromium (set CHROMIUM_PATH)',
      }),
    ];
  }
  const root = benchCacheDir('no-build');
  await rm(root, { recursive: true, force: true });
  const built = await build({
    configFile: 'vite.standalone.config.ts',
    logLevel: 'warn',
    build: { outDir: join(root, 'dist'), emptyOutDir: true },
  });
  const { paintFiles, importDepth } = firstPaintFiles(built);
  await writeFile(join(root, 'index.html'), PAGE);
  const server = await listenOnLoopback(
    createServer((request, response) => {
      if (request.method === 'POST' && request.url === '/v1/chat/completions') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const [index, text] of ANSWER.entries()) {
          const chunk = {
            id: 'c',
            object: 'chat.completion.chunk',
            model: 'bench',
            choices: [
              {
                index: 0,
                delta: { content: text },
                finish_reason: index === ANSWER.length - 1 ? 'stop' : null,
              },
            ],
          };
          response.write(`data: ${JSON.stringify(chunk)}\n\n`);
        }
        response.end('data: [DONE]\n\n');
      } else if (request.url?.startsWith('/v1/')) {
        response.writeHead(404).end();
      } else {
        serveFile(root, request, response);
      }
    }),
  );
  const browser = await launchChromium(executablePath);
  try {
    const page = await browser.context.newPage();
    const fetched: Fetched[] = [];
    const pending: Promise<void>[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (!path.startsWith('/dist/')) return;
      pending.push(
        readFile(join(root, path)).then(
          (body) => void fetched.push({ path, gzipped: gzipSync(body, { level: 9 }).length }),
        ),
      );
    });
    await page.goto(`${server.origin}/index.html`);
    const chat = page.locator('agent-chat');
    await chat.getByRole('textbox', { name: 'Message' }).waitFor();
    await page.waitForFunction(() =>
      document.querySelector('agent-chat')?.shadowRoot?.querySelector('textarea:not([disabled])'),
    );
    await Promise.all(pending);
    const paint = fetched.filter((file) => paintFiles.has(file.path));
    const missing = [...paintFiles].filter((path) => !paint.some((file) => file.path === path));
    if (missing.length > 0)
      throw new Error(`no-build page: the element was usable before ${missing.join(', ')} loaded`);
    await chat.getByRole('textbox', { name: 'Message' }).fill('What is 6 * 7?');
    await chat.getByRole('textbox', { name: 'Message' }).press('Enter');
    await chat.locator('article.assistant .markdown strong').last().waitFor();
    // Rendered: the code block highlighted (its grammar loads after the markdown) and the
    // row under the answer shown; then no request for 500 ms. (`networkidle` was reached at
    // page load already, so waiting for it returned at once and left late chunks out.)
    await chat.locator('article.assistant pre code span').first().waitFor();
    await chat.locator('article.assistant [part~="message-actions"]').last().waitFor();
    for (let quiet = fetched.length; ; quiet = fetched.length) {
      await page.waitForTimeout(500);
      await Promise.all(pending);
      if (fetched.length === quiet) break;
    }
    const answer = [...fetched];
    const kb = (files: readonly Fetched[]) =>
      files.reduce((sum, file) => sum + file.gzipped, 0) / 1024;
    const largest = (files: readonly Fetched[]) =>
      [...files]
        .sort((a, b) => b.gzipped - a.gzipped)
        .map((file) => `${file.path.replace(/^\/dist\//, '')} ${(file.gzipped / 1024).toFixed(1)}`)
        .join(', ');
    return [
      checked({
        id: 'size.no-build.first-paint',
        label: 'size: no-build page (dist/agent-chat.js), first paint',
        value: kb(paint),
        unit: 'KB',
        target: { op: '<=', limit: 50 },
        note: `dist/agent-chat.js and the files it imports statically (${paint.length}: ${largest(paint)} KB gz; ${importDepth} round trips after the page), what the browser fetches before the element renders; a plain page from a static server, no bundler`,
      }),
      info({
        id: 'size.no-build.first-paint.requests',
        label: 'size: no-build page, first paint, requests',
        value: paint.length,
        unit: 'requests',
      }),
      checked({
        id: 'size.no-build.first-answer',
        label: 'size: no-build page, up to a rendered first answer',
        value: kb(answer),
        unit: 'KB',
        target: { op: '<=', limit: 75 },
        note: `${answer.length} requests in all; a markdown answer with a JS code block from an OpenAI-compatible server; Chromium's Sanitizer API (no DOMPurify); loaded after the first paint (KB gz): ${largest(answer.filter((file) => !paint.includes(file)))}`,
      }),
      info({
        id: 'size.no-build.first-answer.requests',
        label: 'size: no-build page, up to a rendered first answer, requests',
        value: answer.length,
        unit: 'requests',
      }),
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * The entry chunk and every chunk it imports statically (paths as the page requests them), and
 * how many import levels deep that graph is: the round trips a browser needs to fetch it, the
 * entry's own request included.
 */
function firstPaintFiles(built: Awaited<ReturnType<typeof build>>): {
  paintFiles: Set<string>;
  importDepth: number;
} {
  // A single-config library build resolves to one output (or an array of them); never a watcher.
  const outputs = (Array.isArray(built) ? built : [built]) as Rolldown.RolldownOutput[];
  const chunks = new Map<string, Rolldown.OutputChunk>();
  for (const output of outputs)
    for (const item of output.output) if (item.type === 'chunk') chunks.set(item.fileName, item);
  const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('no-build page: the standalone build emitted no entry');
  const paintFiles = new Set<string>();
  const depth = (chunk: Rolldown.OutputChunk): number => {
    paintFiles.add(`/dist/${chunk.fileName}`);
    const below = chunk.imports
      .map((name) => chunks.get(name))
      .filter((next) => next !== undefined);
    return 1 + Math.max(0, ...below.map(depth));
  };
  return { paintFiles, importDepth: depth(entry) };
}
