import { AgentError, errorMessage, isAbortError, isAgentError } from '../../errors/agent-error.js';

const OVERFLOW = /exceeds the available context size|context size has been exceeded/i;

/**
 * A wllama failure as ours: an abort stays an abort (the loop reports it as cancelled), a
 * prompt over the window is `CONTEXT_OVERFLOW` (llama.cpp 3.13: "request (4113 tokens) exceeds
 * the available context size (1024 tokens)" — the window is learned from it), a failed
 * download `NETWORK_ERROR`, anything else `STREAM_ERROR`, each with wllama's message.
 */
export function wllamaFailure(error: unknown, stage: 'load' | 'generate'): unknown {
  if (isAbortError(error) || isAgentError(error)) return error;
  const message = errorMessage(error);
  const type = (error as { type?: unknown } | null)?.type; // WllamaError's own field, read with care
  if (OVERFLOW.test(message))
    return new AgentError(
      'CONTEXT_OVERFLOW',
      `wllama: ${message}. Shorten the conversation, or load the model with a larger contextSize.`,
      { cause: error },
    );
  if (type === 'download_error' || (stage === 'load' && error instanceof TypeError))
    return new AgentError(
      'NETWORK_ERROR',
      `wllama could not download the model: ${message}. Check the model URL and the network; a cached model loads offline.`,
      { cause: error },
    );
  return new AgentError(
    'STREAM_ERROR',
    stage === 'load' ? `wllama could not load the model: ${message}` : `wllama: ${message}`,
    { cause: error },
  );
}
