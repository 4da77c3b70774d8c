/** Characters after which a chunk ends at the next clean cut (a block boundary or an unindented line). */
export const CHUNK = 4_096;
/** Characters after which a chunk with no clean cut ends anyway (inside a fence, an indented line, mid-line). */
const HARD_LIMIT = 4 * CHUNK;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Where a chunk ends, and how the next one starts: inside a code fence (its opening line), or mid-structure. */
export interface Chunk {
  end: number;
  fence: string | undefined;
  /** The next chunk starts at an indented line of a structure cut in two: render it dedented. */
  dedent: boolean;
}

/**
 * The next chunk of `text` from `from` that can be rendered on its own and never again, so a
 * long answer is parsed once, piece by piece, instead of whole on every frame (quadratic in its
 * length: 1 MB without a blank line took 135 s). A chunk ends, in order of preference:
 *
 * - at the last block boundary (a blank line outside a fence, then an unindented line) in the
 *   first {@link CHUNK} characters, else at the last unindented line there (a paragraph break
 *   where the text had a line break), else at the first such cut before {@link HARD_LIMIT};
 * - past {@link HARD_LIMIT} with no clean cut (a 1 MB code block, a 1,000-level list, one
 *   endless line): at the last line start (the fence is closed and reopened; the chunk is
 *   rendered dedented), else at a space, else anywhere.
 *
 * While streaming (`final` false) the text after the last cut may still change: a chunk ends
 * only where later text cannot change it, else `end` is `from` (nothing to freeze yet). With
 * `final`, the last chunk ends at the end of the text.
 */
export function nextChunk(
  text: string,
  from: number,
  options: { final: boolean; fence: string | undefined },
): Chunk {
  const stop = Math.min(text.length, from + HARD_LIMIT);
  const atEnd = stop === text.length;
  if (atEnd && options.final) return { end: text.length, fence: undefined, dedent: false };
  let fence = options.fence;
  let boundary = -1;
  let unindented = -1;
  let laterClean = -1;
  let lineStart = -1;
  let lineFence: string | undefined;
  let blank = false;
  let index = from;
  while (index < stop) {
    const found = text.indexOf('\n', index);
    const newline = found < 0 || found >= stop ? -1 : found;
    const end = newline < 0 ? stop : newline;
    const line = text.slice(index, end);
    if (index > from) {
      if (fence === undefined && line !== '' && !/^\s/.test(line)) {
        if (index - from > CHUNK) {
          if (laterClean < 0 && (blank || line[0] !== '|')) laterClean = index;
        } else if (blank) boundary = index;
        else if (line[0] !== '|') unindented = index;
      }
      if (fence !== undefined || line[0] !== '|') {
        lineStart = index;
        lineFence = fence;
      }
    }
    if (newline < 0) break;
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined) {
      const open = fence === undefined ? undefined : FENCE.exec(fence)?.[1];
      if (open === undefined) fence = line.trim();
      else if (marker[0] === open[0] && marker.length >= open.length && line.trim() === marker)
        fence = undefined;
    }
    blank = fence === undefined && line.trim() === '';
    index = end + 1;
  }
  const clean = (end: number): Chunk => ({ end, fence: undefined, dedent: false });
  // The growing rest: only complete blocks are final while it is shorter than a chunk.
  if (atEnd && text.length - from <= CHUNK) return clean(boundary > from ? boundary : from);
  if (boundary > from) return clean(boundary);
  if (unindented > from) return clean(unindented);
  if (laterClean > from) return clean(laterClean);
  if (atEnd) return clean(from);
  if (lineStart > from)
    return { end: lineStart, fence: lineFence, dedent: lineFence === undefined };
  return { end: midLineCut(text, from, stop), fence, dedent: false };
}

/** A cut in one line longer than the hard limit: after its last space, else anywhere (not inside a surrogate pair). */
function midLineCut(text: string, from: number, stop: number): number {
  const space = text.lastIndexOf(' ', stop - 1);
  if (space > from + CHUNK) return space + 1;
  const code = text.charCodeAt(stop);
  return code >= 0xdc00 && code <= 0xdfff ? stop - 1 : stop;
}

/**
 * The markdown of the chunk `text[from..end]` to render on its own, given how the chunk before
 * it ended (`start`): a fence open at its start is reopened (one open at its end closes at the
 * end of the input), and a chunk cut at an indented line is dedented by that line's indentation
 * (else it would read as indented code).
 */
export function chunkSource(
  text: string,
  from: number,
  end: number,
  start: Omit<Chunk, 'end'>,
): string {
  let source = text.slice(from, end);
  if (start.fence !== undefined) source = `${start.fence}\n${source}`;
  else if (start.dedent) {
    const indent = /^[ \t]+/.exec(source)?.[0].length ?? 0;
    if (indent > 0) source = source.replace(new RegExp(`^[ \\t]{1,${indent}}`, 'gm'), '');
  }
  return source;
}
