// npm's `prepare` hook. It exists for one case: installing open-agent from a git URL
// (`npm install github:…/open-agent`), where npm clones the repository, installs its dev
// dependencies and runs `prepare` — dist/ is not in git, so without a build the package would
// have no `main`. Everywhere else it stays out of the way:
// - `npm ci` (CI, a fresh clone): skipped — `npm test` builds, and an install stays seconds.
// - `npm pack` / `npm publish`: skipped — `prepack` always builds a fresh dist/ for the tarball.
// - `npm install` in a checkout: builds only when dist/ is missing.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const command = process.env.npm_command;
const built = existsSync('dist/index.js') && existsSync('dist/agent-chat.js');

if (command === 'ci' || command === 'pack' || command === 'publish') {
  console.log(`open-agent prepare: skipped for npm ${command}`);
} else if (built) {
  console.log('open-agent prepare: dist/ is there (npm run build rebuilds it)');
} else {
  console.log('open-agent prepare: building dist/ (npm run build)…');
  execSync('npm run build', { stdio: 'inherit' });
}
