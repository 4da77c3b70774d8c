import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildFirstLoad, modulesIn } from './esbuild-first-load.js';

// esbuild's code splitting puts each module in a chunk keyed by the set of entry points reaching
// it, and every import() target is an entry point; it never merges chunks. So a module that the
// first load needs and that a lazily loaded module also imports statically leaves the entry chunk
// for a small chunk of its own: one more file, hence one more request and module to evaluate
// (~2-3 ms of cold import each in the bench, ~100 B of gzip), in every esbuild app's first load.
// Vite (Rolldown) merges them back. This pins which modules are shared that way, and why.

/** The modules a first load may share with lazy chunks, and the lazy code that needs each. */
const SHARED = new Map<string, string>([
  ['src/errors/agent-error.ts', 'every lazy part builds or checks AgentErrors'],
  [
    'src/types/is-record.ts',
    'every reader of wire and stored data (aggregator, dialects, Ollama, files)',
  ],
  [
    'src/types/chat-request.ts',
    'STREAM_DONE and CHUNK_BATCHES: the backend yields them, the aggregator and Ollama read them',
  ],
  ['src/loop/round-calls.ts', "tool-execution and branching settle and cancel the round's calls"],
  [
    'src/backend/server-error-message.ts',
    "Ollama's NDJSON reader reads server errors like the SSE reader",
  ],
  ['src/backend/stream-error.ts', "Ollama's NDJSON reader reads server errors like the SSE reader"],
  [
    'src/history/conversation-file-format.ts',
    'public constants; the conversation file code (lazy) writes and checks them',
  ],
  [
    'src/types/schema-check.ts',
    'describeIssues: conversation files and structured answers; structured answers check a Standard Schema like tool() does',
  ],
  [
    'src/types/message-schema.ts',
    "Client.restore() and a stored paused round check messages (valibot) like the conversation file's reader",
  ],
  [
    'src/types/valibot-check.ts',
    "Client.restore() and a stored paused round check messages (valibot) like the conversation file's reader",
  ],
  [
    'node_modules/valibot/dist/index.mjs',
    "Client.restore() and a stored paused round check messages (valibot) like the conversation file's reader",
  ],
  [
    'src/history/message-schema.ts',
    'IndexedDB history checks what it stores like the conversation file reader',
  ],
  [
    'src/history/history-store.ts',
    'UNTITLED (public): the history stores (loaded on first use) title a conversation with it',
  ],
  [
    'src/history/repair-dangling-tool-calls.ts',
    'a public export; the history stores (loaded on first use) repair what they load with it',
  ],
  [
    'src/types/message.ts',
    'message text helpers: the history stores (loaded on first use) title conversations with them',
  ],
  [
    'src/types/events.ts',
    "assertNever: the worker connection (loaded on a worker tool's first call) reads the protocol with it",
  ],
  [
    'components/strings/chat-strings.ts',
    'the markdown renderer (lazy) translates its Copy buttons',
  ],
  ['components/markdown/copy-code.ts', 'a message row (lazy) copies like a code block'],
  ['components/tool-card/json-text.ts', 'a tool card (lazy) shows JSON like the transcript'],
  [
    'node_modules/lit-html/lit-html.js',
    'the lazy elements (message row, tool card, image input) are Lit elements',
  ],
  ['node_modules/lit-html/is-server.js', 'the lazy elements are Lit elements'],
  ['node_modules/@lit/reactive-element/css-tag.js', 'the lazy elements are Lit elements'],
  ['node_modules/@lit/reactive-element/reactive-element.js', 'the lazy elements are Lit elements'],
  ['node_modules/lit-element/lit-element.js', 'the lazy elements are Lit elements'],
]);

/** At most this many files load before each app runs (its entry chunk and what it imports). */
const MAX_FILES: Record<string, number> = {
  'query-only.ts': 7,
  'client-json-tool.ts': 9,
  'chat-page.ts': 13,
};

interface FirstLoad {
  /** The chunks split off the entry, each with the modules it holds. */
  chunks: { file: string; modules: string[] }[];
  /** For a module, the modules in lazy chunks that import it statically. */
  lazyImporters(module: string): string[];
}

async function firstLoad(entry: string): Promise<FirstLoad> {
  const { metafile, entryKey, first } = await esbuildFirstLoad(entry, { splitting: true });
  const outputs: Metafile['outputs'] = metafile.outputs;
  const held = (key: string) => modulesIn(metafile, key);
  const lazy = new Set(
    Object.keys(outputs)
      .filter((key) => !first.has(key))
      .flatMap(held),
  );
  return {
    chunks: [...first]
      .filter((key) => key !== entryKey)
      .map((key) => ({ file: key, modules: held(key) })),
    lazyImporters: (module) =>
      [...lazy].filter((id) =>
        metafile.inputs[id]?.imports.some(
          (item) => item.kind === 'import-statement' && item.path === module,
        ),
      ),
  };
}

describe('esbuild first loads stay in few files', () => {
  for (const [entry, maxFiles] of Object.entries(MAX_FILES)) {
    it(
      entry,
      async () => {
        const load = await firstLoad(`bench/entries/${entry}`);
        const unexpected = load.chunks.flatMap(({ modules }) =>
          modules.filter((module) => !SHARED.has(module)),
        );
        // Name first the modules a lazy module imports itself: the import to change.
        const direct = unexpected.flatMap((module) => {
          const importers = load.lazyImporters(module);
          return importers.length > 0 ? [`${module} (imported by ${importers.join(', ')})`] : [];
        });
        const through = unexpected.filter((module) => load.lazyImporters(module).length === 0);
        expect(
          unexpected,
          'first-load modules split off the entry into chunks of their own because lazily loaded ' +
            `code imports them: ${direct.join('; ')}` +
            (through.length > 0 ? `; and what those import: ${through.join(', ')}` : '') +
            '. Import from the lazy module only modules the first load does not need, or move what ' +
            'it needs to a module lazy code may share (SHARED in this test says which, and why).',
        ).toEqual([]);
        const files = load.chunks.map(({ file, modules }) => `${file}: ${modules.join(', ')}`);
        expect(
          load.chunks.length + 1,
          `first load of ${entry}: the entry and ${files.join('; ')}`,
        ).toBeLessThanOrEqual(maxFiles);
      },
      30_000,
    );
  }
});
