import { it } from 'vitest';
import { esbuildFirstLoad } from './esbuild-first-load.js';
it('list', async () => {
  const { metafile, first } = await esbuildFirstLoad(`bench/entries/chat-page.ts`, {
    splitting: true,
  });
  for (const [key, out] of Object.entries(metafile.outputs))
    for (const i of out.imports)
      if (i.path.includes('2QSTBIZZ') || i.path.includes('conversation-search'))
        console.log(key, first.has(key), i.kind, i.path, Object.keys(out.inputs).slice(0, 3));
}, 30000);
