import { AgentError, errorMessage } from './agent-error.js';

/** The error reported for a hook that threw: `TOOL_FAILED`, naming the hook. */
export function hookFailure(hook: string, error: unknown): AgentError {
  return new AgentError('TOOL_FAILED', `${hook} hook failed: ${errorMessage(error)}`, {
    cause: error,
    context: { hook },
  });
}
