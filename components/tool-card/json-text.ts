/**
 * `value` as indented JSON for a tool card, whatever a tool returned: a BigInt shows as its
 * digits, and what JSON cannot hold (a cycle, `undefined`) falls back to `String(value)`, so the
 * card never throws and the answer after it still shows.
 */
export function jsonText(value: unknown): string {
  try {
    return (
      JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item), 2) ??
      String(value)
    );
  } catch {
    return String(value);
  }
}

/** A tool result as the card shows it: a string as it is, anything else as {@link jsonText}. */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : jsonText(result);
}
