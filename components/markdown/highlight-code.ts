import { tokenizeWith, type ShjToken } from '@speed-highlight/core/tokenize';

// Loaded by render-markdown.ts when the first code block shows; each language loads when a
// block of it first shows. @speed-highlight/core: the smallest well-kept highlighter that
// looks right (1.3 kB gzip, 0.3–1 kB per language; highlight.js core with seven languages is
// 18.5 kB, Prism 10.4 kB). Its tokens become spans built with textContent: no HTML is parsed.

/** A grammar (never a language's name). */
type Language = Exclude<Parameters<typeof tokenizeWith>[1], string>;
// `unknown`: the package's declared grammar types do not pass `exactOptionalPropertyTypes`.
type Module = Promise<{ default: unknown }>;

/** The languages offered, with the ones each embeds (missing ones stay plain text). */
const LANGUAGES: Record<string, [() => Module, ...string[]]> = {
  js: [() => import('@speed-highlight/core/languages/js.js'), 'regex', 'jsdoc', 'todo'],
  ts: [() => import('@speed-highlight/core/languages/ts.js'), 'js', 'regex', 'jsdoc', 'todo'],
  py: [() => import('@speed-highlight/core/languages/py.js'), 'todo'],
  bash: [() => import('@speed-highlight/core/languages/bash.js'), 'todo'],
  json: [() => import('@speed-highlight/core/languages/json.js')],
  css: [() => import('@speed-highlight/core/languages/css.js'), 'todo'],
  html: [
    () => import('@speed-highlight/core/languages/html.js'),
    'css',
    'js',
    'regex',
    'jsdoc',
    'todo',
  ],
  xml: [() => import('@speed-highlight/core/languages/xml.js'), 'todo'],
  sql: [() => import('@speed-highlight/core/languages/sql.js'), 'todo'],
  go: [() => import('@speed-highlight/core/languages/go.js'), 'todo'],
  rs: [() => import('@speed-highlight/core/languages/rs.js'), 'todo'],
  c: [() => import('@speed-highlight/core/languages/c.js'), 'todo'],
  java: [() => import('@speed-highlight/core/languages/java.js'), 'todo'],
  yaml: [() => import('@speed-highlight/core/languages/yaml.js'), 'todo'],
  diff: [() => import('@speed-highlight/core/languages/diff.js')],
  regex: [() => import('@speed-highlight/core/languages/regex.js'), 'todo'],
  jsdoc: [() => import('@speed-highlight/core/languages/jsdoc.js')],
  todo: [() => import('@speed-highlight/core/languages/todo.js')],
};

/** Names models write after the fence, for the languages above. */
const ALIASES: Record<string, string> = {
  javascript: 'js',
  jsx: 'js',
  mjs: 'js',
  typescript: 'ts',
  tsx: 'ts',
  python: 'py',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  jsonc: 'json',
  svg: 'xml',
  rust: 'rs',
  golang: 'go',
  cpp: 'c',
  'c++': 'c',
  h: 'c',
  yml: 'yaml',
  patch: 'diff',
};

/** Token colours, light and dark; `--agent-chat-syntax-<type>` replaces one. */
const COLOURS: Partial<Record<ShjToken, string>> = {
  kwd: '#a626a4, #d28cf0',
  str: '#2f7d2b, #98d38a',
  cmnt: '#5f6b7c, #9aa4b2',
  num: '#9a5b00, #e5b26b',
  bool: '#9a5b00, #e5b26b',
  func: '#2457c5, #7fb2ff',
  class: '#b3261e, #ff9c8f',
  type: '#b3261e, #ff9c8f',
  var: '#b3261e, #ff9c8f',
  oper: '#0e6e7c, #6fd0dc',
  err: '#c4321f, #ff8a80',
  section: '#2457c5, #7fb2ff',
  insert: '#2f7d2b, #98d38a',
  deleted: '#c4321f, #ff8a80',
  esc: '#0e6e7c, #6fd0dc',
};

const loaded = new Map<string, Promise<Language | undefined>>();

function load(name: string): Promise<Language | undefined> {
  let language = loaded.get(name);
  if (!language) {
    const entry = LANGUAGES[name];
    // The package's own grammar, typed loosely above.
    language = entry
      ? entry[0]().then(
          (module) => module.default as Language,
          () => undefined,
        )
      : Promise.resolve(undefined);
    loaded.set(name, language);
  }
  return language;
}

/**
 * Colours the code of `code` (a `<code>` in a rendered answer) as `language`, once that
 * language is loaded; unknown languages stay plain. Does nothing when the block changed or
 * left the page meanwhile (a streamed block is drawn anew each frame).
 */
export async function highlightCode(code: HTMLElement, language: string): Promise<void> {
  const name = ALIASES[language.toLowerCase()] ?? language.toLowerCase();
  const entry = LANGUAGES[name];
  if (!entry) return;
  const [main, ...embedded] = await Promise.all([
    load(name),
    ...entry.slice(1).map((sub) => load(sub as string)),
  ]);
  const text = code.textContent ?? '';
  if (!main || code.childElementCount > 0) return;
  const languages: Record<string, Language> = {};
  entry.slice(1).forEach((sub, index) => {
    const module = embedded[index];
    if (module) languages[sub as string] = module;
  });
  const fragment = document.createDocumentFragment();
  tokenizeWith(
    text,
    main,
    (piece, type) => {
      const colour = type && COLOURS[type];
      if (!colour) return void fragment.append(piece);
      const span = document.createElement('span');
      span.textContent = piece;
      // Set through CSSOM, so a strict CSP (no inline style attributes) allows it.
      span.style.color = `var(--agent-chat-syntax-${type}, light-dark(${colour}))`;
      fragment.append(span);
    },
    { languages },
  );
  if (code.textContent === text) code.replaceChildren(fragment);
}
