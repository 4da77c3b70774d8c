/** Tuning for {@link retryDelay}; every field has a default. */
export interface RetryDelayOptions {
  /** First backoff ceiling in ms (doubles per retry). Default 500. */
  baseMs?: number;
  /** Largest backoff ceiling in ms. Default 8 000. */
  capMs?: number;
  /** Largest `Retry-After` we honour, in ms. Default 60 000. */
  maxRetryAfterMs?: number;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  random?: () => number;
  /** Clock for HTTP-date `Retry-After` values. Default `Date.now`. */
  now?: () => number;
}

/** Statuses worth another try: timeout, conflict, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * How long to wait before retry number `retry` (0 = the first retry): the server's
 * `Retry-After` (or OpenAI's `retry-after-ms`) when it sent one, capped at
 * `maxRetryAfterMs`; otherwise exponential backoff with full jitter
 * (`random() * min(capMs, baseMs * 2^retry)`), which spreads retries of many tabs apart.
 */
export function retryDelay(
  retry: number,
  headers: Headers | undefined,
  options: RetryDelayOptions = {},
): number {
  const {
    baseMs = 500,
    capMs = 8_000,
    maxRetryAfterMs = 60_000,
    random = Math.random,
    now = Date.now,
  } = options;
  const fromServer = headers ? retryAfterMs(headers, now) : undefined;
  if (fromServer !== undefined) return Math.min(fromServer, maxRetryAfterMs);
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** retry));
}

/** `retry-after-ms` (milliseconds), or `Retry-After` as seconds or an HTTP date; undefined when absent or unparseable. */
export function retryAfterMs(headers: Headers, now: () => number = Date.now): number | undefined {
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}
