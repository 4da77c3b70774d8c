import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright';
import { chromiumArgs } from '../../test/support/chromium.js';

/** Debian's Chromium (Playwright's own download cannot be fetched on our machines), or CHROMIUM_PATH. */
export function chromiumPath(): string | undefined {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return existsSync(path) ? path : undefined;
}

/** A browser context whose profile lives in a temporary folder, removed by `close`. */
export interface ChromiumProfile {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium with the flags every browser run here uses, on a persistent profile:
 * `browser.newPage()` would open an off-the-record context, whose IndexedDB lives in memory
 * and would flatter the storage figures. `extraArgs` go after the usual flags.
 */
export async function launchChromium(
  executablePath: string,
  extraArgs: readonly string[] = [],
): Promise<ChromiumProfile> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'open-agent-bench-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: [...chromiumArgs, ...extraArgs],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
