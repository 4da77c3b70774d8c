import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const r = await build({ entryPoints: ['bench/entries/chat-page.ts'], bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, treeShaking: true, splitting: true, outdir: '/tmp/x', metafile: true });
for (const f of r.outputFiles) { const o = r.metafile.outputs[Object.keys(r.metafile.outputs).find(k=>f.path.endsWith(k.split('/').pop()))]; console.log(gzipSync(f.contents,{level:9}).length, f.path.split('/').pop(), Object.keys(o?.inputs??{}).filter(k=>!k.startsWith('node_modules')).slice(0,4).join(' ')); }
