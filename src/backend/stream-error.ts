import { AgentError } from '../errors/agent-error.js';
import { serverErrorMessage, truncate } from './server-error-message.js';

/** `STREAM_ERROR` with the server's own message. */
export function streamError(payload: unknown, url: string): AgentError {
  const message =
    serverErrorMessage(payload) ??
    (typeof payload === 'string' ? payload : truncate(JSON.stringify(payload) ?? ''));
  return new AgentError(
    'STREAM_ERROR',
    message ? message : `The server at ${url} reported an error mid-stream`,
    {
      context: {
        url,
        payload: typeof payload === 'string' ? truncate(payload, 1_000) : payload,
      },
    },
  );
}
