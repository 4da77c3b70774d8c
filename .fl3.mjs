import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const stub = process.argv.slice(2);
const r = await build({ entryPoints: ['bench/entries/chat-page.ts'], bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, treeShaking: true, metafile: true,
 plugins: [{ name: 'x', setup(b) { b.onResolve({ filter: /.*/ }, (a) => a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined); } }] });
const gz = (s) => gzipSync(Buffer.from(s), { level: 9 }).length;
console.log('base', gz(r.outputFiles[0].text));
const out = Object.values(r.metafile.outputs)[0];
for (const k of Object.keys(out.inputs).filter(k=>k.startsWith('components'))) console.log(k, out.inputs[k].bytesInOutput);
