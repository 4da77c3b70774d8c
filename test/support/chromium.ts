import { existsSync } from 'node:fs';

/**
 * Debian's Chromium (`apt-get install chromium`), or `CHROMIUM_PATH`. Playwright's own
 * browser download does not work on our CI machines; elsewhere `npx playwright install
 * chromium` and point `CHROMIUM_PATH` at it.
 */
export const chromiumPath: string | undefined =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/** Flags for a headless Chromium on a closed network, as root (vitest, Playwright, bench). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
