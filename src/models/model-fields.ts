/**
 * A non-null, non-array object. Its own copy (types/is-record.ts has the same): each module
 * this lazy code shares with the first load costs apps a first-load file of its own.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A positive whole number (a size, a token count), or undefined. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? Math.round(value)
    : undefined;
}

/** A non-empty string, or undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The records of an array field (`data`, `models`), others skipped. */
export function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** `{ key: value }` when value is defined, else `{}`: for optional fields under `exactOptionalPropertyTypes`. */
export function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }; // one key, typed by K
}
