/**
 * True for a non-null, non-array object; its fields stay `unknown` until checked. The one
 * guard every reader of wire, storage and `postMessage` data starts from.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
