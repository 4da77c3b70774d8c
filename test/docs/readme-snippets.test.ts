import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

// Every code snippet in the README type-checks against the sources, so none drifts from the API
// (one used an undefined `calculator`, one had no imports). `ts` blocks are strict TypeScript
// modules; the module scripts of `html` blocks are checked as the JavaScript they are.

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');

/** The README's checkable snippets: `ts` blocks, and `<script type="module">` bodies of `html` blocks. */
function snippets(): { name: string; code: string }[] {
  const found: { name: string; code: string }[] = [];
  for (const match of readme.matchAll(/^```(ts|html)\n([\s\S]*?)^```/gm)) {
    const [, language = '', body = ''] = match;
    const line = readme.slice(0, match.index).split('\n').length;
    if (language === 'ts') {
      found.push({ name: `README.md:${line}.ts`, code: body });
      // A block that names a .mjs file must paste into one: the same code, checked as JavaScript.
      if (/^\/\/ [\w-]+\.mjs\b/.test(body))
        found.push({ name: `README.md:${line}.mjs`, code: body });
    } else
      for (const script of body.matchAll(/<script type="module">([\s\S]*?)<\/script>/g))
        found.push({ name: `README.md:${line}.js`, code: script[1] ?? '' });
  }
  return found;
}

/** Where the README's no-build pages load the file from: a copy of dist/ beside the page. */
const NO_BUILD = './open-agent/agent-chat.js';

/** Type errors in `files` (virtual, under the repo root), as `README.md:<line>.<ext> +<line in block>: message`. */
function typeErrors(
  files: { name: string; code: string }[],
  overrides: ts.CompilerOptions,
): string[] {
  const virtual = new Map(files.map((file) => [`${root}.readme/${file.name}`, file.code]));
  // The pages' relative import of the no-build file, next to the virtual snippets.
  virtual.set(
    `${root}.readme/${NO_BUILD.replace('./', '').replace(/\.js$/, '.ts')}`,
    `export * from '../../components/standalone.js';\n`,
  );
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowJs: true,
    checkJs: true,
    paths: {
      'open-agent': [`${root}src/index.ts`],
      'open-agent/components': [`${root}components/index.ts`],
      'open-agent/components/model-picker': [`${root}components/model-picker/index.ts`],
      'open-agent/worker': [`${root}src/worker/index.ts`],
      'open-agent/mcp': [`${root}src/mcp/index.ts`],
    },
    ...overrides,
  };
  const base = ts.createCompilerHost(options);
  const host: ts.CompilerHost = Object.assign(Object.create(base) as ts.CompilerHost, {
    getSourceFile: (name: string, language: ts.ScriptTarget | ts.CreateSourceFileOptions) => {
      const code = virtual.get(name);
      return code === undefined
        ? base.getSourceFile(name, language)
        : ts.createSourceFile(name, code, language);
    },
    fileExists: (name: string) => virtual.has(name) || base.fileExists(name),
    directoryExists: (name: string) =>
      name.startsWith(`${root}.readme`) || (base.directoryExists?.(name) ?? true),
    readFile: (name: string) => virtual.get(name) ?? base.readFile(name),
  });

  const program = ts.createProgram([...virtual.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter(
      (diagnostic) =>
        diagnostic.file === undefined ||
        (virtual.has(diagnostic.file.fileName) &&
          !diagnostic.file.fileName.includes('/open-agent/')),
    )
    .map((diagnostic) => {
      const where =
        diagnostic.file && diagnostic.start !== undefined
          ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
          : undefined;
      const name = diagnostic.file?.fileName.replace(`${root}.readme/`, '') ?? '';
      return `${name} +${(where?.line ?? 0) + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
}

test('the README has snippets, and every one type-checks', () => {
  const files = snippets();
  expect(files.length).toBeGreaterThanOrEqual(5);
  expect(
    typeErrors(
      files.filter((file) => file.name.endsWith('.ts')),
      {},
    ),
  ).toEqual([]);
  // A page script may take `querySelector('agent-chat')` to be there: it is, in the same page.
  expect(
    typeErrors(
      files.filter((file) => file.name.endsWith('.js')),
      { strictNullChecks: false },
    ),
  ).toEqual([]);
  expect(
    typeErrors(
      files.filter((file) => file.name.endsWith('.mjs')),
      {},
    ),
  ).toEqual([]);
}, 240_000); // full programs over the sources: ~20 s alone, far more on a busy 2-core machine

test('no page in the README loads code from a registry name we do not hold', () => {
  // Until the package is published, anyone may publish "open-agent": a page copying a CDN line
  // would run their code. The README's pages load a copy of dist/ served beside them.
  const pages = [...readme.matchAll(/^```html\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? '');
  expect(pages.length).toBeGreaterThan(0);
  for (const page of pages) {
    expect(page).not.toMatch(
      /https?:\/\/(cdn\.jsdelivr\.net|unpkg\.com|esm\.sh|cdn\.skypack\.dev|ga\.jspm\.io)/,
    );
  }
  expect(readme).toContain(`src="${NO_BUILD}"`);
});
