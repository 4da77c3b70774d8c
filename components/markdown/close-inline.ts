const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/gm;

/**
 * The growing tail of a streamed answer with its unterminated inline markup closed for now:
 * `The answer is **12` renders bold instead of showing raw asterisks until the closing ones
 * arrive. Only the last paragraph is looked at (inline markup never spans a blank line), and
 * only the tail block is rendered per frame, so the whole answer is never parsed again.
 * An opener with nothing after it yet is left out. Text in an open code fence is untouched,
 * and `*` between spaces (`6 * 7`) or opening a list item is no emphasis.
 */
export function closeInline(tail: string): string {
  if (((tail.match(FENCE_LINE) ?? []).length & 1) === 1) return tail;
  const start = tail.lastIndexOf('\n\n') + 1;
  const open: { marker: string; at: number }[] = [];
  let code = -1;
  for (let index = start; index < tail.length; index++) {
    const char = tail[index];
    if (char === '\\') {
      index++;
      continue;
    }
    if (char === '`') {
      code = code < 0 ? index : -1;
      continue;
    }
    if (code >= 0 || (char !== '*' && char !== '~')) continue;
    const marker = tail.startsWith(char.repeat(2), index) ? char.repeat(2) : char;
    if (marker === '~') continue;
    const before = tail[index - 1] ?? '\n';
    const after = tail[index + marker.length] ?? '';
    if (open.at(-1)?.marker === marker && !/\s/.test(before)) open.pop();
    else if (after === '' || !/\s/.test(after)) open.push({ marker, at: index });
    index += marker.length - 1;
  }
  let text = tail;
  if (code >= 0) text = code === text.length - 1 ? text.slice(0, -1) : `${text}\``;
  for (const { marker, at } of open.reverse()) {
    text = at + marker.length >= text.length ? text.slice(0, at) : text + marker;
  }
  return text;
}
