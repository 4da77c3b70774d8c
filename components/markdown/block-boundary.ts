const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The end of the last complete markdown block in `text[from..]`: the index just after a
 * blank line that is outside a code fence and followed by an unindented line (so list
 * continuations and indented code stay with their block). Returns `from` when there is
 * none yet. `from` must itself be a block boundary (outside any fence).
 *
 * Streaming renders the text before the boundary once and re-renders only what follows. When
 * the text after the boundary is longer than `longest`, the start of its last unindented line
 * outside a fence (not a table row) is taken instead: a block that never ends (a 1 MB answer
 * without a blank line) would otherwise be parsed again whole every frame, quadratic in its
 * length. The cost is a paragraph break where the text had a line break.
 */
export function findBlockBoundary(text: string, from: number, longest = Infinity): number {
  let boundary = from;
  let lineStart = from;
  let fence: string | undefined;
  let blank = false;
  let index = from;
  while (index < text.length) {
    const newline = text.indexOf('\n', index);
    // The last line may still be growing, but its first character already tells a new block.
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(index, end);
    if (fence === undefined && line !== '' && !/^\s/.test(line)) {
      if (blank) boundary = index;
      else if (index > from && line[0] !== '|') lineStart = index;
    }
    if (newline < 0) break;
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    }
    blank = fence === undefined && line.trim() === '';
    index = end + 1;
  }
  return text.length - boundary > longest && lineStart > boundary ? lineStart : boundary;
}
