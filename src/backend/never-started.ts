/**
 * Error codes (Node's fetch puts them on `cause`, or on the cause's cause) that prove the
 * request never reached a server: nothing listened, the name did not resolve, no route.
 */
const NOT_STARTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/**
 * True when a failed `fetch` provably never reached a server, so sending it again cannot
 * start the work twice. A browser's "Failed to fetch" says nothing (CORS, nothing listening
 * and a dropped connection look the same), so it is false there.
 *
 * @example
 * neverStarted(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })); // true
 * neverStarted(new TypeError('Failed to fetch')); // false
 */
export function neverStarted(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = 'code' in current ? current.code : undefined;
    if (typeof code === 'string' && NOT_STARTED.has(code)) return true;
    current = 'cause' in current ? current.cause : undefined;
  }
  return false;
}
