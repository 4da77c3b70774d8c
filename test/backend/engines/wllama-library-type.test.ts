import { describe, expect, it } from 'vitest';
import type { WllamaLibrary } from '../../../src/backend/engines/wllama-library.js';

describe('WllamaLibrary', () => {
  it('is what `import("@wllama/wllama")` gives (checked by tsc)', () => {
    const load: () => Promise<WllamaLibrary> = () => import('@wllama/wllama');
    expect(typeof load).toBe('function');
  });
});
