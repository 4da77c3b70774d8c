/** Container markers (`>`, `-`, `*`, `+`, `1.`) a line may open before the rest is text. */
export const MAX_NESTING = 32;
/** Columns of indentation kept: deeper lines sit at this depth (16 list levels of 4). */
const MAX_INDENT = 64;
/** Characters without a break opportunity before the renderer adds one (`<wbr>`). */
const MAX_RUN = 80;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CONTAINERS = /^(?:[ \t]*(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$))){33,}/;

/**
 * `markdown` with its nesting bounded before parsing: the parser recurses once per level (with
 * marked, before it, 2,000 nested `>` overflowed the stack; a 1,000-level list took 10 s). Past {@link MAX_NESTING}
 * markers on a line the markers are escaped, so they show as text; indentation past
 * {@link MAX_INDENT} columns is cut to it, so deeper list items become siblings at that depth.
 * Lines inside fenced code are left as they are.
 */
export function boundNesting(markdown: string): string {
  let fence: string | undefined;
  return markdown.replace(/^.*$/gm, (line) => {
    const marker = FENCE.exec(line)?.[1];
    if (marker && (!fence || marker[0] === fence[0])) fence = fence ? undefined : marker;
    if (fence || marker) return line;
    let markers = 0;
    return line
      .replace(/^[ \t]{17,}/, (indent) =>
        indent.replace(/\t/g, '    ').length > MAX_INDENT ? ' '.repeat(MAX_INDENT) : indent,
      )
      .replace(CONTAINERS, (prefix) =>
        prefix.replace(/>|[-+*]|\d+[.)]/g, (found) =>
          ++markers > MAX_NESTING ? found.replace(/[>*+\-.)]/, '\\$&') : found,
        ),
      );
  });
}

/**
 * Adds a break opportunity (`<wbr>`, which copies as nothing) every {@link MAX_RUN} characters of
 * a run with none: the browser's line breaking and text shaping of one unbroken run grow faster
 * than its length (a 100,000-character word froze the page for 8.6 s).
 */
export function breakLongRuns(root: DocumentFragment): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const long: Text[] = [];
  const run = /\S{81}/;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (run.test((node as Text).data)) long.push(node as Text);
  }
  for (const text of long) {
    const parts = text.data.replace(new RegExp(`\\S{${MAX_RUN}}(?=\\S)`, 'g'), '$&\0').split('\0');
    text.replaceWith(
      ...parts.flatMap((part, index) => (index ? [document.createElement('wbr'), part] : part)),
    );
  }
}
