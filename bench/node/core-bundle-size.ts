import { bundleSize, describeLargest } from '../support/bundle.js';
import { checked, info, type Figure } from '../support/figure.js';

/**
 * Figure 2: the public entry as a browser app would ship it — src/index.ts (what dist/index.js
 * is built from) with its dependencies except zod (the app has its own), minified ESM.
 */
export async function coreBundleSize(): Promise<Figure[]> {
  const size = await bundleSize({ entry: 'src/index.ts', external: ['zod'] });
  const queryOnly = await bundleSize({ entry: 'bench/entries/query-only.ts', external: ['zod'] });
  return [
    checked({
      id: 'size.core.gzip',
      label: 'bundle: src/index.ts + deps except zod, min+gzip',
      value: size.gzipped / 1024,
      unit: 'KB',
      target: { op: '<=', limit: 10 },
      note: `${(size.minified / 1024).toFixed(1)} KB minified; largest before minifying: ${describeLargest(size.byPackage, 3)}; modules: ${describeLargest(size.byModule, 6)}`,
    }),
    info({
      id: 'size.query-only.gzip',
      label: 'bundle: an app importing only query(), except zod, min+gzip',
      value: queryOnly.gzipped / 1024,
      unit: 'KB',
      note: `what tree-shaking keeps; modules: ${describeLargest(queryOnly.byModule, 6)}`,
    }),
  ];
}
