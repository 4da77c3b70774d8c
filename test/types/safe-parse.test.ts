import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { safeParse } from '../../src/types/safe-parse.js';

// zod keeps its configuration on globalThis, shared by every zod copy in the process: each test
// restores what it found, so other files see the locale they expect.
const original = z.config().localeError;
afterEach(() => {
  z.config({ localeError: original });
});

describe('safeParse()', () => {
  it('reports English messages when no locale is set (zod/mini sets none)', () => {
    z.config({ localeError: undefined });
    const result = safeParse(z.object({ a: z.number() }), { a: 'x' });
    expect(!result.success && result.error.issues[0]?.message).toBe(
      'Invalid input: expected number, received string',
    );
  });

  it("keeps the app's own locale", () => {
    z.config({ localeError: () => 'falsch' });
    const result = safeParse(z.number(), 'x');
    expect(!result.success && result.error.issues[0]?.message).toBe('falsch');
  });
});
