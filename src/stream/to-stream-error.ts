import { AgentError, errorMessage, isAgentError } from '../errors/agent-error.js';

/**
 * What a failure while reading a chunk source becomes: an {@link AgentError} passes
 * unchanged (the transport already classified it); an abort (`AbortError`) becomes
 * `EXECUTION_CANCELLED`; anything else a source throws (an `openai` SDK client, a WebLLM
 * engine) becomes `STREAM_ERROR` with the original as `cause`.
 *
 * @example
 * toStreamError(new TypeError('network error')).code; // 'STREAM_ERROR'
 */
export function toStreamError(error: unknown): AgentError {
  if (isAgentError(error)) return error;
  if (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  ) {
    // `name` read as unknown, compared only
    return new AgentError(
      'EXECUTION_CANCELLED',
      'The response stream was cancelled before it finished.',
      {
        cause: error,
      },
    );
  }
  return new AgentError(
    'STREAM_ERROR',
    `Reading the response stream failed: ${errorMessage(error)}`,
    {
      cause: error,
    },
  );
}
