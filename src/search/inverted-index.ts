import { foldTerm } from './fold-text.js';

const BETWEEN_WORDS = /[^\p{L}\p{N}]+/u;

/** The folded words of `text` (accents removed, lower case), each once. */
export function termsOf(text: string): Set<string> {
  return new Set(wordsOf(text));
}

/** The folded words of `text`, in order, repeats included: one array (no match object per word). */
function wordsOf(text: string): string[] {
  const words = foldTerm(text).split(BETWEEN_WORDS);
  // A text that starts or ends between words splits with an empty first or last piece.
  if (words[0] === '') words.shift();
  if (words.at(-1) === '') words.pop();
  return words;
}

/**
 * A word → documents index whose queries stop at `limit`: every word of a query must match
 * (the last one as a prefix, it may still be being typed), and matches come newest (highest
 * id) first. A query walks the documents of its rarest word from the newest and checks the
 * others by binary search, so a common word costs no more than a rare one once `limit`
 * matches are found. Ids must be added in increasing order.
 *
 * @example
 * const index = new InvertedIndex();
 * index.add(0, 'Crème brûlée');
 * index.search(['creme', 'bru'], 10); // [0]
 */
export class InvertedIndex {
  readonly #postings = new Map<string, number[]>();
  readonly #removed = new Set<number>();

  add(id: number, text: string): void {
    // A word met again in the same document already ends its list with this id (ids grow): no
    // set of the document's words is built.
    for (const term of wordsOf(text)) {
      const list = this.#postings.get(term);
      if (!list) this.#postings.set(term, [id]);
      else if (list[list.length - 1] !== id) list.push(id);
    }
  }

  /** Leaves a document out of results (its postings stay: removal is rare, a rebuild drops them). */
  remove(id: number): void {
    this.#removed.add(id);
  }

  /** The ids of the newest documents that hold every term (`terms` folded, the last as a prefix). */
  search(terms: readonly string[], limit: number): number[] {
    if (terms.length === 0) return [];
    const groups = terms.map((term, index) => this.#lists(term, index === terms.length - 1));
    if (groups.some((lists) => lists.length === 0)) return [];
    groups.sort((a, b) => size(a) - size(b));
    const [driver = [], ...others] = groups;
    // The rarest term's documents, newest first (a prefix gives several lists: merged by a cursor each).
    const cursors = driver.map((list) => list.length - 1);
    const found: number[] = [];
    for (;;) {
      let best = -1;
      let which = -1;
      for (const [index, list] of driver.entries()) {
        const at = cursors[index] ?? -1;
        const id = at >= 0 ? (list[at] ?? -1) : -1;
        if (id > best) [best, which] = [id, index];
      }
      if (which < 0) return found;
      for (const [index, list] of driver.entries())
        if (list[cursors[index] ?? -1] === best) cursors[index] = (cursors[index] ?? 0) - 1;
      if (this.#removed.has(best)) continue;
      if (others.every((lists) => lists.some((list) => holds(list, best)))) {
        found.push(best);
        if (found.length >= limit) return found;
      }
    }
  }

  #lists(term: string, prefix: boolean): number[][] {
    if (!prefix) {
      const list = this.#postings.get(term);
      return list ? [list] : [];
    }
    const lists: number[][] = [];
    for (const [word, list] of this.#postings) if (word.startsWith(term)) lists.push(list);
    return lists;
  }
}

function size(lists: readonly number[][]): number {
  let total = 0;
  for (const list of lists) total += list.length;
  return total;
}

/** Binary search in an ascending list. */
function holds(list: readonly number[], id: number): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = list[middle] as number;
    if (value === id) return true;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
