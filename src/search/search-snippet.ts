import { foldText } from './fold-text.js';

/** A piece of a message around what matched, and the matched ranges in it. */
export interface Snippet {
  snippet: string;
  /** `[start, end)` character ranges of `snippet` that matched a query term. */
  ranges: [number, number][];
}

const WORD = /[\p{L}\p{N}]/u;

/**
 * The part of `text` around its first match of `terms` (folded: lower case, no accents), about
 * `width` characters, with every match in it marked. A term matches at the start of a word
 * (what a prefix search finds).
 *
 * @example
 * snippetOf('Il fait très beau à Paris', ['tres'], 40); // { snippet: 'Il fait très beau à Paris', ranges: [[8, 12]] }
 */
export function snippetOf(text: string, terms: readonly string[], width = 160): Snippet {
  const folded = foldText(text);
  const found: [number, number][] = [];
  for (const term of terms) {
    if (term === '') continue;
    for (let at = folded.text.indexOf(term); at >= 0; at = folded.text.indexOf(term, at + 1)) {
      if (at > 0 && WORD.test(folded.text[at - 1] ?? '')) continue;
      found.push([folded.origin[at] ?? 0, folded.origin[at + term.length] ?? text.length]);
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  const first = found[0]?.[0] ?? 0;
  let start = Math.max(0, first - Math.floor(width / 3));
  if (start > 0) {
    const space = text.lastIndexOf(' ', first);
    start = space >= start ? space + 1 : start;
  }
  const end = Math.min(text.length, start + width);
  const prefix = start > 0 ? '…' : '';
  const body = text.slice(start, end).replace(/\s/g, ' ');
  const ranges: [number, number][] = [];
  for (const [from, to] of found) {
    if (from < start || from >= end) continue;
    const range: [number, number] = [
      from - start + prefix.length,
      Math.min(to, end) - start + prefix.length,
    ];
    const last = ranges.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else ranges.push(range);
  }
  return { snippet: `${prefix}${body}${end < text.length ? '…' : ''}`, ranges };
}
