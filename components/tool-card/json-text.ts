/**
 * `value` as indented JSON for a tool card, whatever a tool returned: a BigInt shows as its
 * digits, and what JSON cannot hold (a cycle, `undefined`) falls back to `String(value)`, so the
 * card never throws and the answer after it still shows.
 */
export function jsonText(value: unknown, short = false): string {
  try {
    const replacer = (_key: string, item: unknown) =>
      typeof item === 'bigint'
        ? item.toString()
        : short && typeof item === 'string'
          ? shortDataUrl(item)
          : item;
    return JSON.stringify(value, replacer, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A long data URL (a tool's image, often megabytes of base64) as its type and size: what a
 * tool card shows, so a card never holds the whole image as text.
 */
export const shortDataUrl = (text: string): string =>
  text.length > 200 && text.startsWith('data:')
    ? `${text.slice(0, text.indexOf(',') + 1)}… (${(text.length / 1000).toFixed(1)} kB)`
    : text;

/** A tool result as the card shows it: a string as it is (a data URL short), anything else as {@link jsonText}. */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? shortDataUrl(result) : jsonText(result, true);
}
