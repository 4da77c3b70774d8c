/** Text folded for matching (accents removed, lower case), with where each folded character came from. */
export interface FoldedText {
  text: string;
  /** `origin[i]`: the index in the original text of folded character `i`; one more entry for the end. */
  origin: number[];
}

const MARKS = /\p{M}/gu;
const NOT_ASCII = /[^\u0000-\u007f]/;

/**
 * Folds a term or a text for accent- and case-insensitive matching: `Crème Brûlée` → `creme brulee`.
 *
 * @example
 * foldTerm('Ångström'); // 'angstrom'
 */
export function foldTerm(term: string): string {
  // Most text is ASCII: lower-cased only, without the two copies normalising makes (indexing
  // 100,000 messages made them garbage the collector paused the page for).
  const lower = term.toLowerCase();
  return NOT_ASCII.test(lower) ? lower.normalize('NFD').replace(MARKS, '') : lower;
}

/** {@link foldTerm} with a map back to the original text, to highlight what matched. */
export function foldText(text: string): FoldedText {
  let folded = '';
  const origin: number[] = [];
  for (let index = 0; index < text.length;) {
    const code = text.codePointAt(index) ?? 0;
    const width = code > 0xffff ? 2 : 1;
    // ASCII, the common case, folds without normalising.
    const piece =
      code < 0x80
        ? String.fromCharCode(code >= 65 && code <= 90 ? code + 32 : code)
        : foldTerm(text.slice(index, index + width));
    for (let part = 0; part < piece.length; part += 1) origin.push(index);
    folded += piece;
    index += width;
  }
  origin.push(text.length);
  return { text: folded, origin };
}
