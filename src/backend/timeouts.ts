import type { AttemptTimeouts } from './request-attempt.js';

/** The two waits of `timeout` (of `createFetchBackend` and `AgentOptions`), in ms (`0` or `Infinity`: no limit). */
export interface TimeoutOptions {
  /** Response headers and first body byte. Default: no limit. */
  firstByte?: number;
  /** Silence between body reads once the body has started. Default 300 000. */
  idle?: number;
}

/** Default {@link TimeoutOptions}. */
export const DEFAULT_TIMEOUTS = { firstByte: Infinity, idle: 300_000 } as const;

/** The limits a `timeout` option sets. */
export function attemptTimeouts(timeout: number | TimeoutOptions | undefined): AttemptTimeouts {
  if (typeof timeout === 'number') return { firstByte: timeout, idle: timeout };
  return {
    firstByte: timeout?.firstByte ?? DEFAULT_TIMEOUTS.firstByte,
    idle: timeout?.idle ?? DEFAULT_TIMEOUTS.idle,
  };
}
