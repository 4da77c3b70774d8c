/**
 * How `text` at `index` relates to `tag`: the whole tag is there (`'full'`), the text
 * ends with the start of the tag (`'partial'`: the rest may come in the next delta), or
 * neither (`'none'`).
 *
 * Compares character by character so the hot path allocates nothing.
 *
 * @example
 * matchTag('a<thi', 1, '<think>'); // 'partial'
 */
export function matchTag(text: string, index: number, tag: string): 'full' | 'partial' | 'none' {
  const available = text.length - index;
  const length = available < tag.length ? available : tag.length;
  for (let offset = 0; offset < length; offset++) {
    if (text.charCodeAt(index + offset) !== tag.charCodeAt(offset)) return 'none';
  }
  return available >= tag.length ? 'full' : 'partial';
}
