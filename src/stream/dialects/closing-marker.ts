import type { BlockEnd } from './text-tool-call-dialect.js';

/**
 * Where the first of `closers` ends in `body`, searching from `scanned - longest + 1` (an
 * earlier delta saw the rest), or `'more'` while none has arrived.
 */
export function closingMarkerEnd(
  body: string,
  scanned: number,
  closers: readonly string[],
): BlockEnd {
  let best = -1;
  let bestLength = 0;
  for (const closer of closers) {
    const at = body.indexOf(closer, Math.max(0, scanned - closer.length + 1));
    if (at !== -1 && (best === -1 || at < best)) {
      best = at;
      bestLength = closer.length;
    }
  }
  return best === -1 ? 'more' : best + bestLength;
}

/**
 * `'not'` when the start of `body` (after white space) can no longer become `prefix`,
 * `'more'` while it still can, `undefined` once it has.
 */
export function expectPrefix(body: string, prefix: string): 'not' | 'more' | undefined {
  const start = body.search(/\S/);
  if (start === -1) return 'more';
  const head = body.slice(start, start + prefix.length);
  if (head.length < prefix.length) return prefix.startsWith(head) ? 'more' : 'not';
  return head === prefix ? undefined : 'not';
}

/** `text` without the first of `closers` it ends with. */
export function withoutCloser(text: string, closers: readonly string[]): string {
  for (const closer of closers) if (text.endsWith(closer)) return text.slice(0, -closer.length);
  return text;
}
