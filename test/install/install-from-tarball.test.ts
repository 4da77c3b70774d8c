import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serveStatic, type StaticServer } from '../../bench/support/static-server.js';
import { chromiumArgs, chromiumPath } from '../support/chromium.js';

// The README's "Install" section, done as it says in a temporary project: `npm pack` (prepack
// builds dist/), install the tarball (its dependencies from npm's cache, else the registry),
// import every entry in Node, build a small Vite app with <agent-chat>, and load the no-build
// file from a plain static server — both pages answer in Chromium. Slow (a build and an
// install), bounded by the timeouts below.

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = ['open-agent', 'open-agent/components', 'open-agent/worker', 'open-agent/mcp'];

/** A page script: a scripted model that answers in markdown, so no server is needed. */
const SCRIPT = (from: string, fromComponents: string) => `
import { scriptedBackend } from '${from}';
${fromComponents ? `import '${fromComponents}';` : ''}
const chat = document.querySelector('agent-chat');
chat.backend = scriptedBackend([{ text: 'Installed: **it works**.' }]);
`;

let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'open-agent-install-'));
  await run('npm', ['pack', '--pack-destination', project, '--silent'], {
    cwd: repo,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
  });
  const tarball = (await readdir(project)).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack made no tarball');
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'install-check', private: true, type: 'module' }),
  );
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${tarball}`], {
    cwd: project,
    timeout: 240_000,
  });
}, 480_000);

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

test('every entry of the installed package imports in Node', async () => {
  const script = `for (const entry of ${JSON.stringify(ENTRIES)}) { const m = await import(entry); if (Object.keys(m).length === 0) throw new Error(entry + ' exports nothing'); }
const { Client, tool } = await import('open-agent'); new Client({ model: 'm', baseURL: 'http://127.0.0.1:1/v1', tools: [tool({ name: 't', description: 'd', input: { type: 'object', properties: {} }, execute: () => 1 })] });
console.log('ok');`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: project,
    timeout: 60_000,
  });
  expect(stdout.trim()).toBe('ok');
}, 60_000);

test.skipIf(chromiumPath === undefined)(
  'a Vite app and a page with no bundler, both from the installed package, answer in Chromium',
  async () => {
    // A Vite app: `import 'open-agent/components'`, built with Vite.
    const app = join(project, 'app');
    await mkdir(app, { recursive: true });
    await writeFile(
      join(app, 'index.html'),
      '<!doctype html><meta charset="utf-8"><agent-chat></agent-chat><script type="module" src="./main.js"></script>',
    );
    await writeFile(join(app, 'main.js'), SCRIPT('open-agent', 'open-agent/components'));
    await run(
      process.execPath,
      [join(repo, 'node_modules/vite/bin/vite.js'), 'build', '--base', './', '--logLevel', 'warn'],
      { cwd: app, timeout: 120_000 },
    );
    // The no-build file, copied from the package as the README says, next to a plain page.
    const plain = join(project, 'plain');
    await mkdir(plain, { recursive: true });
    await run('cp', [
      '-r',
      join(project, 'node_modules/open-agent/dist'),
      join(plain, 'open-agent'),
    ]);
    await writeFile(
      join(plain, 'index.html'),
      `<!doctype html><meta charset="utf-8"><agent-chat></agent-chat><script type="module">${SCRIPT('./open-agent/agent-chat.js', '')}</script>`,
    );

    const servers: StaticServer[] = [
      await serveStatic(join(app, 'dist')),
      await serveStatic(plain),
    ];
    const browser = await chromium.launch({
      ...(chromiumPath ? { executablePath: chromiumPath } : {}),
      args: chromiumArgs,
    });
    try {
      for (const server of servers) {
        const page = await browser.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('response', (response) => {
          if (response.status() >= 400) problems.push(`${response.url()} ${response.status()}`);
        });
        await page.goto(`${server.origin}/index.html`);
        const box = page.locator('agent-chat').getByRole('textbox', { name: 'Message' });
        await box.fill('Does it work?');
        await box.press('Enter');
        await expect
          .poll(
            () =>
              page
                .locator('agent-chat article.assistant .markdown strong')
                .last()
                .textContent({ timeout: 20_000 }),
            { timeout: 20_000 },
          )
          .toBe('it works');
        expect(problems, server.origin).toEqual([]);
        await page.close();
      }
    } finally {
      await browser.close();
      await Promise.all(servers.map((server) => server.close()));
    }
  },
  240_000,
);
