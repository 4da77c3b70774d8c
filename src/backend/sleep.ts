import { AgentError } from '../errors/agent-error.js';

/** Waits `ms` milliseconds; used between retries. Injectable so tests never wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Resolves after `ms` milliseconds, or rejects with `EXECUTION_CANCELLED` as soon as
 * `signal` aborts (a user who cancels during a retry backoff must not wait it out).
 */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    const cancelled = () =>
      new AgentError('EXECUTION_CANCELLED', 'Request cancelled while waiting to retry', {
        cause: signal?.reason,
      });
    if (signal?.aborted) {
      reject(cancelled());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
