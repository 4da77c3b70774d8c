// `npm run release:archive`: the no-build file as one download, for a page with no npm and no
// bundler — dist/agent-chat.js, the chunks beside it (dist/agent-chat/) and the sandbox engine's
// wasm, with the licence, in open-agent-<version>-agent-chat.tar.gz. Unpack it next to the page
// and load `agent-chat.js` from there. Builds first (`npm run build`) unless --no-build.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, cpSync } from 'node:fs';
import { join } from 'node:path';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
if (!process.argv.includes('--no-build')) execSync('npm run build', { stdio: 'inherit' });
for (const file of ['dist/agent-chat.js', 'dist/agent-chat', 'dist/emscripten-module.wasm']) {
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
}
const name = `open-agent-${version}-agent-chat`;
const staging = join('node_modules/.cache', name);
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
// Source maps stay out: they are most of the bytes and a page never loads them.
const noMaps = (source) => !source.endsWith('.map');
cpSync('dist/agent-chat.js', join(staging, 'agent-chat.js'));
cpSync('dist/agent-chat', join(staging, 'agent-chat'), { recursive: true, filter: noMaps });
cpSync('dist/emscripten-module.wasm', join(staging, 'emscripten-module.wasm'));
cpSync('LICENSE', join(staging, 'LICENSE'));
const archive = `${name}.tar.gz`;
execFileSync('tar', ['-czf', archive, '-C', staging, '.']);
rmSync(staging, { recursive: true, force: true });
console.log(
  `release archive: ${archive} (agent-chat.js, agent-chat/, emscripten-module.wasm, LICENSE)`,
);
