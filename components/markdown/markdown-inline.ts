/**
 * Inline markdown (CommonMark's, with GFM's strikethrough and bare links) to HTML: code spans,
 * emphasis by CommonMark's delimiter rules, links and images (inline, reference and `<auto>`),
 * backslash escapes, entities, hard breaks. Raw HTML is text: every `<` the model writes comes
 * out escaped, so the sanitiser after it is the second line of defence, not the only one.
 * Linear in the text but for emphasis, links and code spans, which each scan a bounded stack or
 * a precomputed bracket pair.
 */

/** A link reference definition, by its normalised label. */
export type LinkRefs = Map<string, { href: string; title: string | undefined }>;

/** A run of `*`, `_` or `~`: what is left of it as text, and the tags matched on either side. */
interface Delim {
  ch: string;
  n: number;
  length: number;
  open: boolean;
  close: boolean;
  before: string[];
  after: string[];
}

const WHITESPACE = /\s/;
const PUNCTUATION = /[!-/:-@[-`{-~\p{P}\p{S}]/u;
const ESCAPABLE = /[!-/:-@[-`{-~]/;
const ENTITY = /&(?:#\d{1,7}|#[xX][\da-fA-F]{1,6}|[A-Za-z][A-Za-z\d]{1,31});/y;
const AUTOLINK = /<([A-Za-z][A-Za-z\d+.-]{1,31}:[^\s<>]*)>/y;
const EMAIL =
  /<([\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z\d](?:[A-Za-z\d-]{0,61}[A-Za-z\d])?(?:\.[A-Za-z\d](?:[A-Za-z\d-]{0,61}[A-Za-z\d])?)*)>/y;
const BARE_LINK = /(?:https?:\/\/|www\.)[^\s<]*/y;
/** Where plain text stops: a character that may start markup. */
const SPECIAL = /[\\`*_~![\]<>&"\n@:w]/g;
const BARE_EMAIL = /@[A-Za-z\d-]+(?:\.[A-Za-z\d-]+)*\.[A-Za-z\d]+/y;

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"]/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[char]};`);

/** A link label as definitions and references compare it. */
export const normalizeLabel = (label: string): string =>
  label.trim().replace(/\s+/g, ' ').toLowerCase();

/** Backslash escapes resolved (in a link's destination and title). */
const unescape = (text: string): string => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** A link's destination percent-encoded as a URL (what is encoded already stays so), then escaped. */
function hrefAttribute(href: string): string {
  try {
    return escapeHtml(encodeURI(href).replace(/%25/g, '%'));
  } catch {
    // A lone surrogate: no URL.
    return '';
  }
}

/**
 * `text` (one paragraph, heading or cell) as inline HTML.
 *
 * @example
 * inlineHtml('**bold** and `code`', new Map()); // '<strong>bold</strong> and <code>code</code>'
 */
export function inlineHtml(text: string, refs: LinkRefs, depth = 0): string {
  const parts: (string | Delim)[] = [];
  const pairs = bracketPairs(text);
  let index = 0;
  const flanks = (at: number, length: number) => {
    const before = text[at - 1] ?? ' ';
    const after = text[at + length] ?? ' ';
    const left =
      !WHITESPACE.test(after) &&
      (!PUNCTUATION.test(after) || WHITESPACE.test(before) || PUNCTUATION.test(before));
    const right =
      !WHITESPACE.test(before) &&
      (!PUNCTUATION.test(before) || WHITESPACE.test(after) || PUNCTUATION.test(after));
    return { left, right, before, after };
  };
  while (index < text.length) {
    SPECIAL.lastIndex = index;
    const found = SPECIAL.exec(text);
    const at = found ? found.index : text.length;
    if (at > index) parts.push(text.slice(index, at));
    if (!found) break;
    index = at;
    const char = text[at];
    if (char === '\\') {
      const next = text[at + 1] ?? '';
      const escaped = next === '\n' || ESCAPABLE.test(next);
      parts.push(next === '\n' ? '<br>' : escaped ? escapeHtml(next) : '\\');
      index = at + (escaped ? 2 : 1);
    } else if (char === '`') {
      const run = /`+/y;
      run.lastIndex = at;
      const ticks = run.exec(text)?.[0] ?? '`';
      const end = closingTicks(text, at + ticks.length, ticks.length);
      if (end < 0) {
        parts.push(ticks);
        index = at + ticks.length;
      } else {
        let code = text.slice(at + ticks.length, end).replace(/\n/g, ' ');
        if (/^ .*[^ ].* $|^ [^ ] $/s.test(code)) code = code.slice(1, -1);
        parts.push(`<code>${escapeHtml(code)}</code>`);
        index = end + ticks.length;
      }
    } else if (char === '*' || char === '_' || char === '~') {
      let end = at;
      while (text[end] === char) end++;
      const length = end - at;
      const { left, right, before, after } = flanks(at, length);
      // GFM: three or more tildes are no strikethrough.
      const can = char !== '~' || length <= 2;
      const open = can && (char === '_' ? left && (!right || PUNCTUATION.test(before)) : left);
      const close = can && (char === '_' ? right && (!left || PUNCTUATION.test(after)) : right);
      parts.push({ ch: char, n: length, length, open, close, before: [], after: [] });
      index = end;
    } else if (char === '[' || (char === '!' && text[at + 1] === '[')) {
      const image = char === '!';
      const open = image ? at + 1 : at;
      // No link in a link's text (an image may be one), nothing deeper: bounded recursion.
      const allowed = image ? depth < 2 : depth === 0;
      const link =
        !allowed || pairs.get(open) === undefined ? undefined : linkAt(text, open, pairs, refs);
      if (link) {
        const inner = inlineHtml(text.slice(open + 1, pairs.get(open)), refs, depth + 1);
        parts.push(
          image
            ? `<img src="${hrefAttribute(link.href)}" alt="${escapeHtml(plain(inner))}"${titleAttribute(link.title)}>`
            : `<a href="${hrefAttribute(link.href)}"${titleAttribute(link.title)}>${inner}</a>`,
        );
        index = link.end;
      } else {
        parts.push(image ? '![' : '[');
        index = open + 1;
      }
    } else if (char === '<') {
      AUTOLINK.lastIndex = at;
      EMAIL.lastIndex = at;
      // No link inside a link's text.
      const auto = depth > 0 ? null : AUTOLINK.exec(text);
      const email = auto || depth > 0 ? null : EMAIL.exec(text);
      if (auto || email) {
        const target = (auto ?? email)?.[1] ?? '';
        const href = email ? `mailto:${target}` : target;
        parts.push(`<a href="${hrefAttribute(href)}">${escapeHtml(target)}</a>`);
        index = at + target.length + 2;
      } else {
        parts.push('&lt;');
        index++;
      }
    } else if (char === '&') {
      ENTITY.lastIndex = at;
      const entity = ENTITY.exec(text)?.[0];
      parts.push(entity ?? '&amp;');
      index = at + (entity?.length ?? 1);
    } else if (char === '\n') {
      const previous = parts.at(-1);
      const spaced = typeof previous === 'string' && previous.endsWith(' ');
      if (spaced) parts[parts.length - 1] = previous.trimEnd();
      parts.push(spaced && previous.endsWith('  ') ? '<br>' : '\n');
      index++;
    } else if (char === '>' || char === '"') {
      parts.push(escapeHtml(char));
      index++;
    } else if (char === '@') {
      // A bare e-mail address (GFM's extended autolink): its name ends the text before it.
      const previous = parts.at(-1);
      const name =
        typeof previous === 'string' && depth === 0 ? /[\w.+-]+$/.exec(previous)?.[0] : undefined;
      BARE_EMAIL.lastIndex = at;
      const domain = name === undefined ? undefined : BARE_EMAIL.exec(text)?.[0];
      if (name !== undefined && domain !== undefined) {
        parts[parts.length - 1] = (previous as string).slice(0, -name.length);
        const address = `${name}${domain}`;
        parts.push(`<a href="${hrefAttribute(`mailto:${address}`)}">${escapeHtml(address)}</a>`);
        index = at + domain.length;
      } else {
        parts.push(char);
        index++;
      }
    } else if (char === '!' || char === ']') {
      parts.push(char);
      index++;
    } else {
      // A bare URL (GFM's autolink literal) at the start of a word: found at its `://` (a plain
      // character class finds stops twice as fast as one with `https?://` in it) or its `w`.
      const start =
        char === 'w'
          ? at
          : text.startsWith('https', at - 5)
            ? at - 5
            : text.startsWith('http', at - 4)
              ? at - 4
              : -1;
      const before = text.slice(start, at);
      const previous = parts.at(-1);
      BARE_LINK.lastIndex = start;
      const url =
        start < 0 ||
        depth > 0 ||
        /[\p{L}\p{N}]/u.test(text[start - 1] ?? ' ') ||
        (before !== '' && !(typeof previous === 'string' && previous.endsWith(before)))
          ? undefined
          : BARE_LINK.exec(text)?.[0];
      const trimmed = url === undefined ? '' : trimUrl(url);
      if (trimmed.length > (trimmed.startsWith('www.') ? 4 : 8)) {
        if (before !== '') parts[parts.length - 1] = (previous as string).slice(0, -before.length);
        const href = trimmed.startsWith('www.') ? `http://${trimmed}` : trimmed;
        parts.push(`<a href="${hrefAttribute(href)}">${escapeHtml(trimmed)}</a>`);
        index = start + trimmed.length;
      } else {
        parts.push(char ?? '');
        index++;
      }
    }
  }
  emphasis(parts.filter((part): part is Delim => typeof part !== 'string'));
  return (
    parts
      // Plain text holds none of `&<>"` (each is a stop of SPECIAL): only markup is built here.
      .map((part) =>
        typeof part === 'string'
          ? part
          : part.before.join('') + part.ch.repeat(part.n) + part.after.join(''),
      )
      .join('')
  );
}

/**
 * CommonMark's "process emphasis": each closer, in order, takes the nearest opener of its kind
 * (the rule of 3 aside; `~` only of its own length), `<strong>` for two of each, else `<em>`;
 * delimiters between them stay text. Runs with no opener below them are not searched again.
 */
function emphasis(delims: Delim[]): void {
  const stack: Delim[] = [];
  const bottom = new Map<string, number>();
  for (const closer of delims) {
    if (closer.close) {
      const key = `${closer.ch}${closer.open ? 1 : 0}${closer.length % 3}`;
      for (let at = stack.length - 1; at > (bottom.get(key) ?? -1) && closer.n > 0; at--) {
        const opener = stack[at] as Delim;
        if (opener.ch !== closer.ch) continue;
        if (closer.ch === '~' ? opener.n !== closer.n : oddMatch(opener, closer)) continue;
        const used =
          closer.ch === '~' || (opener.n >= 2 && closer.n >= 2) ? Math.min(2, closer.n) : 1;
        const tag = closer.ch === '~' ? 'del' : used === 2 ? 'strong' : 'em';
        opener.n -= used;
        closer.n -= used;
        opener.after.unshift(`<${tag}>`);
        closer.before.push(`</${tag}>`);
        stack.length = opener.n > 0 ? at + 1 : at;
        for (const [name, floor] of bottom)
          if (floor >= stack.length) bottom.set(name, stack.length - 1);
        at = stack.length;
      }
      if (closer.n > 0) bottom.set(key, stack.length - 1);
    }
    if (closer.open && closer.n > 0) stack.push(closer);
  }
}

/** CommonMark's rule of 3: a run that can both open and close pairs only when the lengths allow. */
const oddMatch = (opener: Delim, closer: Delim): boolean =>
  (opener.close || closer.open) &&
  (opener.length + closer.length) % 3 === 0 &&
  !(opener.length % 3 === 0 && closer.length % 3 === 0);

/** Where the backtick run of `length` closing a code span starts, from `from`, or -1. */
function closingTicks(text: string, from: number, length: number): number {
  for (let at = text.indexOf('`', from); at >= 0; at = text.indexOf('`', at)) {
    let end = at;
    while (text[end] === '`') end++;
    if (end - at === length) return at;
    at = end;
  }
  return -1;
}

/** Each `[` with the `]` that closes it (escapes and code spans skipped), found in one pass. */
function bracketPairs(text: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '\\') at++;
    else if (char === '`') {
      let end = at;
      while (text[end] === '`') end++;
      const close = closingTicks(text, end, end - at);
      at = close < 0 ? end - 1 : close + (end - at) - 1;
    } else if (char === '[') open.push(at);
    else if (char === ']' && open.length > 0) pairs.set(open.pop() as number, at);
  }
  return pairs;
}

/** The link whose text opens at `open`: `(destination "title")`, `[ref]`, `[]` or a bare `[ref]`. */
function linkAt(
  text: string,
  open: number,
  pairs: Map<number, number>,
  refs: LinkRefs,
): { href: string; title: string | undefined; end: number } | undefined {
  const close = pairs.get(open) as number;
  if (text[close + 1] === '(') {
    const tail =
      /\(\s*(?:<([^<>\n]*)>|((?:\\.|[^\s()\\]|\((?:\\.|[^\s()\\])*\))*))(?:\s+("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\((?:\\.|[^()\\])*\)))?\s*\)/y;
    tail.lastIndex = close + 1;
    const found = tail.exec(text);
    if (found)
      return {
        href: unescape(found[1] ?? found[2] ?? ''),
        title: found[3] === undefined ? undefined : unescape(found[3].slice(1, -1)),
        end: tail.lastIndex,
      };
  }
  const label = /\[((?:\\.|[^\\[\]])*)\]/y;
  label.lastIndex = close + 1;
  const reference = label.exec(text);
  const name = reference?.[1] ? reference[1] : text.slice(open + 1, close);
  const target = refs.get(normalizeLabel(name));
  return target && { ...target, end: reference ? label.lastIndex : close + 1 };
}

/** A bare URL without the punctuation that ends a sentence around it (and an unmatched `)`). */
function trimUrl(url: string): string {
  let end = url.length;
  for (;;) {
    const last = url[end - 1] ?? '';
    if (/[?!.,:*_~'";]/.test(last)) end--;
    else if (
      last === ')' &&
      (url.slice(0, end).match(/\(/g)?.length ?? 0) < (url.slice(0, end).match(/\)/g)?.length ?? 0)
    )
      end--;
    else return url.slice(0, end);
  }
}

const titleAttribute = (title: string | undefined): string =>
  title === undefined ? '' : ` title="${escapeHtml(title)}"`;

/** Rendered inline HTML as plain text (an image's alt). */
const plain = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(lt|gt|quot|amp);/g,
      (_, name: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[name] ?? '',
    );
