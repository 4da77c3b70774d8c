import { describe, expect, it } from 'vitest';
import { esbuildFirstLoad, modulesIn } from './esbuild-first-load.js';

// Issue 29's target: the model picker and the doctor's code load only when opened — 0 bytes in
// the chat page's first load. The picker is opt-in (`open-agent/components/model-picker`, in
// the chat's header slot): a chat page without it ships none of it, and one with it ships the
// header's button only; the panel, localModels' and checkServer's code load when it opens.

/** The modules with code in an app entry's first load (esbuild, code splitting on). */
async function firstLoad(entry: string): Promise<string[]> {
  const { metafile, first } = await esbuildFirstLoad(`bench/entries/${entry}`, { splitting: true });
  return [...first].flatMap((key) => modulesIn(metafile, key));
}

const PICKER_OR_MODELS = /components\/model-picker\/|src\/models\//;

describe('the model picker in first loads', () => {
  it('a chat page without <agent-model-picker> ships no byte of it or of the models code', async () => {
    const modules = await firstLoad('chat-page.ts');
    expect(modules.filter((id) => PICKER_OR_MODELS.test(id))).toEqual([]);
  }, 30_000);

  it('a chat page with it ships the header button and the two entry functions only', async () => {
    const modules = await firstLoad('chat-page-picker.ts');
    expect(modules.filter((id) => PICKER_OR_MODELS.test(id)).sort()).toEqual([
      'components/model-picker/agent-model-picker.ts',
      'components/model-picker/index.ts',
      'src/models/check-server.ts',
      'src/models/local-models.ts',
    ]);
  }, 30_000);
});
