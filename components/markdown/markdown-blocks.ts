import { escapeHtml, inlineHtml, normalizeLabel, type LinkRefs } from './markdown-inline.js';

/*
 * Block markdown (CommonMark's blocks and GFM's tables and task lists) to HTML, with the inline
 * parser beside it: what a model writes — paragraphs, ATX and setext headings, fenced and
 * indented code, block quotes, nested bullet and ordered lists (tight or loose), tables with
 * alignment, rules, link reference definitions. Raw HTML is text. It recurses once per block
 * quote or list level: bound the nesting first (boundNesting) for hostile input.
 *
 * Why not a library: the no-build page's first answer has a 75 KB budget and the parser is the
 * one piece that could give. Bundled with esbuild --minify, gzip -9 (2026-11-28): marked 18.2.1
 * 15.3 KB, micromark + micromark-extension-gfm 21.4 KB, markdown-it 41.7 KB, commonmark.js 48.5
 * KB (no tables); snarkdown 1.0 KB has no tables or nested lists. This parser: 4.3 KB.
 */

const BLANK = /^[ \t]*$/;
const FENCE = /^( {0,3})(`{3,}(?=[^`]*$)|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/;
const RULE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( {0,3})([-+*]|(\d{1,9})[.)])([ \t]+|$)(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const DEFINITION =
  /^ {0,3}\[((?:\\.|[^\\[\]]){1,999})\]:[ \t]*(<[^<>\n]*>|\S+)(?:[ \t]+("[^"]*"|'[^']*'|\([^()]*\)))?[ \t]*$/;

/** What the blocks share: link definitions, and each inline text to render once they are all known. */
interface Context {
  refs: LinkRefs;
  inline: string[];
}

/**
 * `markdown` as HTML: every text escaped, raw HTML shown as text, code blocks as
 * `<pre><code class="language-…">`. Sanitise it before it reaches a page all the same.
 *
 * @example
 * markdownToHtml('# Hi\n\n- a\n- b'); // '<h1>Hi</h1>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n'
 */
export function markdownToHtml(markdown: string): string {
  const context: Context = { refs: new Map(), inline: [] };
  const lines = markdown
    .replace(/\r\n?|\0/g, (found) => (found === '\0' ? '\uFFFD' : '\n'))
    .split('\n')
    .map(expandTabs);
  // Inline texts render last: a reference may come before its definition.
  return blocks(lines, context, false).replace(/\0(\d+)\0/g, (_, index: string) =>
    inlineHtml(context.inline[Number(index)] ?? '', context.refs),
  );
}

/** Leading tabs as spaces to the next multiple of 4 columns. */
function expandTabs(line: string): string {
  return line.replace(/^[ \t]+/, (indent) => {
    let columns = 0;
    for (const char of indent) columns = char === '\t' ? columns + 4 - (columns % 4) : columns + 1;
    return ' '.repeat(columns);
  });
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** Whether `line` ends a paragraph by starting a block of its own (an empty item does not). */
function interrupts(line: string): boolean {
  if (FENCE.test(line) || ATX.test(line) || RULE.test(line) || QUOTE.test(line)) return true;
  const item = ITEM.exec(line);
  return !!item && !BLANK.test(item[5] ?? '') && (item[3] === undefined || item[3] === '1');
}

function blocks(lines: readonly string[], context: Context, tight: boolean): string {
  let html = '';
  let paragraph: string[] = [];
  const text = (source: string): string => `\0${context.inline.push(source) - 1}\0`;
  const flush = () => {
    if (paragraph.length === 0) return;
    const inline = text(paragraph.join('\n').trimEnd());
    html += tight ? inline : `<p>${inline}</p>\n`;
    paragraph = [];
  };
  for (let index = 0; index < lines.length;) {
    const line = lines[index] as string;
    const next = lines[index + 1];
    let found: RegExpExecArray | null;
    if (BLANK.test(line)) {
      flush();
      index++;
    } else if (paragraph.length > 0 && SETEXT.test(line)) {
      html += heading(line.trim()[0] === '=' ? 1 : 2, paragraph.join('\n'), text);
      paragraph = [];
      index++;
    } else if (indentOf(line) >= 4) {
      if (paragraph.length > 0) {
        paragraph.push(line.trimStart());
        index++;
        continue;
      }
      const code: string[] = [];
      for (
        ;
        index < lines.length &&
        (BLANK.test(lines[index] as string) || indentOf(lines[index] as string) >= 4);
        index++
      )
        code.push((lines[index] as string).slice(4));
      while (code.length > 0 && BLANK.test(code.at(-1) as string)) code.pop();
      html += `<pre><code>${escapeHtml(`${code.join('\n')}\n`)}</code></pre>\n`;
    } else if ((found = FENCE.exec(line))) {
      flush();
      const [, indent = '', marker = '', info = ''] = found;
      const code: string[] = [];
      const closing = new RegExp(
        `^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`,
      );
      for (index++; index < lines.length && !closing.test(lines[index] as string); index++)
        code.push((lines[index] as string).replace(new RegExp(`^ {0,${indent.length}}`), ''));
      index++;
      const language = info
        .trim()
        .split(/\s/)[0]
        ?.replace(/\\([!-/:-@[-`{-~])/g, '$1');
      const attribute = language ? ` class="language-${escapeHtml(language)}"` : '';
      const body = code.length > 0 ? `${code.join('\n')}\n` : '';
      html += `<pre><code${attribute}>${escapeHtml(body)}</code></pre>\n`;
    } else if ((found = ATX.exec(line))) {
      flush();
      const content = (found[2] ?? '').replace(/(?:^|[ \t]+)#+[ \t]*$/, '').trim();
      html += heading((found[1] ?? '#').length, content, text);
      index++;
    } else if (RULE.test(line)) {
      flush();
      html += '<hr>\n';
      index++;
    } else if (
      next !== undefined &&
      line.includes('|') &&
      TABLE_DELIMITER.test(next) &&
      cells(line).length === cells(next).length
    ) {
      flush();
      index = table(lines, index, text, (table) => (html += table));
    } else if (QUOTE.test(line)) {
      flush();
      const quoted: string[] = [];
      let fenced = false;
      for (; index < lines.length; index++) {
        const current = lines[index] as string;
        const marker = QUOTE.exec(current);
        if (marker) {
          quoted.push(current.slice(marker[0].length));
          if (FENCE.test(quoted.at(-1) as string)) fenced = !fenced;
        } else if (
          // A lazy line continues the quote's paragraph.
          BLANK.test(current) ||
          quoted.length === 0 ||
          BLANK.test(quoted.at(-1) as string) ||
          interrupts(current) ||
          fenced
        )
          break;
        else quoted.push(current);
      }
      html += `<blockquote>\n${blocks(quoted, context, false)}</blockquote>\n`;
    } else if ((found = ITEM.exec(line)) && (paragraph.length === 0 || interrupts(line))) {
      flush();
      index = list(lines, index, context, (list) => (html += list));
    } else if (paragraph.length === 0 && (found = DEFINITION.exec(line))) {
      const [, label = '', href = '', title] = found;
      const key = normalizeLabel(label);
      if (!context.refs.has(key))
        context.refs.set(key, {
          href: href.replace(/^<(.*)>$/, '$1'),
          title: title?.slice(1, -1),
        });
      index++;
    } else {
      paragraph.push(line.trimStart());
      index++;
    }
  }
  flush();
  return html;
}

const heading = (level: number, content: string, text: (source: string) => string): string =>
  `<h${level}>${text(content)}</h${level}>\n`;

/** A table row's cells: split at each `|` not escaped, the outer pipes dropped; `\|` is a pipe. */
function cells(row: string): string[] {
  const found: string[] = [];
  let cell = '';
  const trimmed = row.trim().replace(/^\|/, '');
  for (let at = 0; at < trimmed.length; at++) {
    const char = trimmed[at];
    if (char === '\\' && trimmed[at + 1] === '|') {
      cell += '|';
      at++;
    } else if (char === '|') {
      found.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  if (cell.trim() !== '' || !trimmed.endsWith('|')) found.push(cell.trim());
  return found;
}

/** The GFM table from `start` (its header row), handed to `emit`; returns the line after it. */
function table(
  lines: readonly string[],
  start: number,
  text: (source: string) => string,
  emit: (html: string) => void,
): number {
  const aligns = cells(lines[start + 1] as string).map((cell) =>
    cell.endsWith(':')
      ? cell.startsWith(':')
        ? 'center'
        : 'right'
      : cell.startsWith(':')
        ? 'left'
        : '',
  );
  const row = (source: string, tag: 'th' | 'td'): string => {
    const values = cells(source);
    return `<tr>\n${aligns
      .map((align, column) => {
        const attribute = align ? ` align="${align}"` : '';
        return `<${tag}${attribute}>${text(values[column] ?? '')}</${tag}>\n`;
      })
      .join('')}</tr>\n`;
  };
  let html = `<table>\n<thead>\n${row(lines[start] as string, 'th')}</thead>\n`;
  let index = start + 2;
  let body = '';
  for (; index < lines.length; index++) {
    const line = lines[index] as string;
    if (BLANK.test(line) || interrupts(line)) break;
    body += row(line, 'td');
  }
  if (body) html += `<tbody>${body}</tbody>\n`;
  emit(`${html}</table>\n`);
  return index;
}

/** The list from `start` (its first item), handed to `emit`; returns the line after it. */
function list(
  lines: readonly string[],
  start: number,
  context: Context,
  emit: (html: string) => void,
): number {
  const first = ITEM.exec(lines[start] as string) as RegExpExecArray;
  const ordered = first[3] !== undefined;
  const kind = (first[2] ?? '').slice(-1);
  const items: string[][] = [];
  let loose = false;
  let index = start;
  for (;;) {
    const found =
      lines[index] === undefined || RULE.test(lines[index] as string)
        ? null
        : ITEM.exec(lines[index] as string);
    if (!found || (found[2] ?? '').slice(-1) !== kind) break;
    const [, indent = '', marker = '', , spacing = '', rest = ''] = found;
    const width = indent.length + marker.length;
    const content = BLANK.test(rest) || spacing.length > 4 ? width + 1 : width + spacing.length;
    const item = [spacing.length > 4 ? `${' '.repeat(spacing.length - 1)}${rest}` : rest];
    let fenced = FENCE.test(item[0] as string);
    for (index++; index < lines.length; index++) {
      const line = lines[index] as string;
      if (BLANK.test(line)) item.push('');
      else if (indentOf(line) >= content) item.push(line.slice(content));
      else if (BLANK.test(item.at(-1) as string) || interrupts(line) || ITEM.test(line) || fenced)
        break;
      else item.push(line.trimStart());
      if (FENCE.test(item.at(-1) as string)) fenced = !fenced;
    }
    let blanks = 0;
    while (item.length > 1 && BLANK.test(item.at(-1) as string)) {
      item.pop();
      blanks++;
    }
    // Loose: items apart by a blank line, or an item's own blocks apart by one.
    const nextItem = ITEM.exec(lines[index] ?? '');
    if (blanks > 0 && nextItem && (nextItem[2] ?? '').slice(-1) === kind) loose = true;
    let inFence = false;
    for (const [at, line] of item.entries()) {
      if (FENCE.test(line)) inFence = !inFence;
      if (
        !inFence &&
        at > 0 &&
        BLANK.test(item[at - 1] as string) &&
        !BLANK.test(line) &&
        indentOf(line) === 0
      )
        loose = true;
    }
    items.push(item);
  }
  const attribute = ordered && first[3] !== '1' ? ` start="${Number(first[3])}"` : '';
  const tag = ordered ? 'ol' : 'ul';
  let html = `<${tag}${attribute}>\n`;
  for (const item of items) {
    const task = /^\[([ xX])\][ \t]+/.exec(item[0] ?? '');
    if (task) item[0] = (item[0] ?? '').slice(task[0].length);
    const box = task ? `<input type="checkbox" disabled${task[1] === ' ' ? '' : ' checked'}> ` : '';
    html += `<li>${box}${blocks(item, context, !loose).replace(/\n$/, '')}</li>\n`;
  }
  emit(`${html}</${tag}>\n`);
  return index;
}
