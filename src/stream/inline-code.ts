/**
 * Where a Markdown inline code span opened by a run of `ticks` backticks ends in `text`: only a
 * run of the same length closes it, so markup inside it is shown, never run. Returns the index
 * right after the closing run; while the span is still open, `~index` of what to hold (a run
 * of backticks at the end of the text, which may go on in the next piece), so `~end` is
 * `text.length` when nothing is held.
 *
 * @example
 * inlineCodeEnd('<tool_call>` and more', 1); // 12: '<tool_call>`' is code, ' and more' is not
 * inlineCodeEnd('<tool_call> and more', 1); // ~20: all of it is code, the span is still open
 */
export function inlineCodeEnd(text: string, ticks: number): number {
  let from = 0;
  for (;;) {
    const tick = text.indexOf('`', from);
    if (tick === -1) return ~text.length;
    let end = tick;
    while (text[end] === '`') end++;
    // The run may go on in the next piece.
    if (end === text.length) return ~tick;
    if (end - tick === ticks) return end;
    from = end;
  }
}
