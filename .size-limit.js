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

export default [
  // Target 12 KiB (issue #9), not reached (13.4 KiB); held here so it cannot grow back.
  check('query() only', 'query-only.ts', '14 KiB'),
  check('Client + a JSON-Schema tool', 'client-json-tool.ts', '25 KiB'),
  check('<agent-chat> page: first load', 'chat-page.ts', '50 KiB'),
  // With marked (loaded when the first answer shows) and the other lazy chunks, each gzipped on
  // its own as a server sends it; the browser's own sanitiser. Target 75 KiB, not reached
  // (77.5 KiB when measured so): held here so it cannot grow, plus what later features brought
  // in lazy chunks only — responseFormat's parsing (~1 kB, only when an app sets it), issue 18's
  // safeguards (~1.2 kB: bounded nesting and runs in the renderer chunk, a history repair chunk
  // loaded only when a stored record fails its check) and the context window (~3.6 kB: server
  // probe, fitting, overflow diagnosis, loaded on the first model call). Issue 16 adds 16 kB of
  // chunks loaded on use: the code highlighter (~10 kB: @speed-highlight/core 1.6 kB with our
  // glue when the first code block with a language shows, then 0.15–1.7 kB per language, 18
  // grammars each its own chunk — a page loads the ones its answers use), branches (~2.8 kB:
  // the Client's branch code, the fork check, the conversation file format now loaded on first
  // export or import), the row under each message (1.1 kB, after the first paint) and the
  // small shared chunks esbuild splits out of those (~2 kB).
  check('<agent-chat> page: with what loads later', 'chat-page.ts', '101 KiB', { lazy: true, nativeSanitizer: true }),
  // Browsers without the HTML Sanitizer API (Safari) load DOMPurify too: held likewise.
  check('<agent-chat> page: with what loads later, DOMPurify fallback', 'chat-page.ts', '113 KiB', { lazy: true }),
  check('open-agent/worker', 'worker-entry.ts', '2 KiB'),
  // open-agent/mcp: connectMcp loads the MCP SDK (with zod and ajv, which its client
  // imports) by import() when it connects, so a page that only offers the option stays light.
  check('open-agent/mcp: first load', 'mcp-client.ts', '26 KiB'),
  // With the SDK, and the context-window chunks a Client loads on its first call: held, plus
  // issue 16's branch chunks a Client loads on its first branch or switch (~4 kB with the
  // shared chunks they split out).
  check('open-agent/mcp: with the SDK, once connecting', 'mcp-client.ts', '173 KiB', { lazy: true }),
];
