// Size budgets, checked by `npm test` (deterministic: bytes, not timings). Each check bundles an
// app entry under bench/entries/ the way a user's esbuild build would — browser ESM, minified,
// tree-shaken, every dependency bundled — and sums gzip -9 per file. `npm run bench` prints the
// same entries with esbuild and Vite, beside the openai SDK.

/** Leaves `import()`ed modules out: what a page loads before the app runs (its first load). */
const firstLoadOnly = {
  name: 'leave-lazy-chunks-out',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
  },
};

/** Leaves DOMPurify out: browsers with the HTML Sanitizer API never load it. */
const withNativeSanitizer = {
  name: 'no-dompurify',
  setup(build) {
    build.onResolve({ filter: /^dompurify$/ }, (args) => ({ path: args.path, external: true }));
  },
};

const browserEsm = (plugins, splitting) => (config) => ({
  ...config,
  format: 'esm',
  // With what loads later: each import() is its own file, as a user's build ships it.
  splitting,
  platform: 'browser',
  target: 'es2022',
  plugins: [...(config.plugins ?? []), ...plugins],
});

const check = (name, entry, limit, { lazy = false, nativeSanitizer = false } = {}) => ({
  name,
  path: `bench/entries/${entry}`,
  limit,
  gzip: true,
  modifyEsbuildConfig: browserEsm(
    [...(lazy ? [] : [firstLoadOnly]), ...(nativeSanitizer ? [withNativeSanitizer] : [])],
    lazy,
  ),
});

// Budgets: the figure when last cut (issue 9's JSON-Schema cut: @cfworker/json-schema loads only
// where a user's JSON Schema is checked, our own stored shapes are checked by valibot) plus a
// small margin, so that nothing grows unnoticed. Raise one only with a reason in the commit.
export default [
  // Target 12 KiB (issue 9), not reached: 13.6 KiB (13.93 kB). No schema code in it.
  check('query() only', 'query-only.ts', '14 KiB'),
  // Target 25 KiB (issue 9), reached: 19.2 KiB (19.63 kB); the JSON Schema validator loads
  // with the first model call (Tool.prepare), no longer with the page.
  check('Client + a JSON-Schema tool', 'client-json-tool.ts', '20 KiB'),
  // Target 50 KiB (issue 9), reached: 45.6 KiB (46.66 kB), 4.4 KiB under the target — the room
  // other features (issue 16) may take, each with its figure in the commit.
  check('<agent-chat> page: first load', 'chat-page.ts', '46.5 KiB'),
  // With marked (loaded when the first answer shows) and the other lazy chunks, each gzipped on
  // its own as a server sends it; the browser's own sanitiser. Target 75 KiB (issue 9), not
  // reached: 87.2 KiB (89.3 kB). It counts every chunk a page may load, so both checkers:
  // valibot (in the first load) and the JSON Schema validator (loaded only for a user's JSON
  // Schema: tool inputs, structured answers), +2.6 kB over the single validator before; then
  // tool results' images (+1 kB: moved to a user message for the server, loaded with the
  // first request that carries an image result) and live tool lists: 88.4 KiB (90.54 kB). Then
  // issue 10's speed work, +1.3 kB in lazy chunks (a synchronous context fit with running
  // sums, tools settled without a promise, the validator's shortcut for flat object schemas):
  // 89.7 KiB (91.82 kB).
  check('<agent-chat> page: with what loads later', 'chat-page.ts', '90 KiB', { lazy: true, nativeSanitizer: true }),
  // Browsers without the HTML Sanitizer API (Safari) load DOMPurify too: 100.2 KiB (102.6 kB);
  // after issue 10's speed work 101.4 KiB (103.87 kB).
  check('<agent-chat> page: with what loads later, DOMPurify fallback', 'chat-page.ts', '102 KiB', { lazy: true }),
  check('open-agent/worker', 'worker-entry.ts', '2 KiB'),
  // open-agent/mcp: connectMcp loads the MCP SDK (with zod and ajv, which its client
  // imports) by import() when it connects, so a page that only offers the option stays light:
  // 20.1 KiB (20.59 kB).
  check('open-agent/mcp: first load', 'mcp-client.ts', '21 KiB'),
  // With the SDK, and the context-window chunks a Client loads on its first call: 171.2 KiB
  // (175.3 kB), valibot included; with tool results' images and the tool-list refresh:
  // 172.4 KiB (176.56 kB); after issue 10's speed work 173.7 KiB (177.91 kB).
  check('open-agent/mcp: with the SDK, once connecting', 'mcp-client.ts', '174 KiB', { lazy: true }),
];
