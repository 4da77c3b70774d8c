import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

// The README's "Install" section's git-URL line, done as it says: `npm install git+<repository-url>`
// — here the URL of this checkout (`git+file://…`, what npm does for an https or ssh URL too: it
// clones the last commit, installs its dev dependencies and runs `prepare`, which builds dist/).
// Slow (an install and a build), bounded by the timeouts below.

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = ['open-agent', 'open-agent/components', 'open-agent/worker', 'open-agent/mcp'];

let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'open-agent-git-install-'));
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'git-install-check', private: true, type: 'module' }),
  );
  await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${repo}`],
    { cwd: project, timeout: 480_000, maxBuffer: 64 * 1024 * 1024 },
  );
}, 540_000);

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

test('a package installed from a git URL has dist/ built, and every entry imports in Node', async () => {
  const script = `for (const entry of ${JSON.stringify(ENTRIES)}) { const m = await import(entry); if (Object.keys(m).length === 0) throw new Error(entry + ' exports nothing'); }
const url = import.meta.resolve('open-agent/agent-chat.js');
console.log(url.endsWith('/dist/agent-chat.js') ? 'ok' : url);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: project,
    timeout: 60_000,
  });
  expect(stdout.trim()).toBe('ok');
}, 90_000);
