import { AgentError, errorMessage } from './agent-error.js';

// What `onError` (and the `tool_use_error` of a run) hears when the app's own code, handed to
// the runtime, threw: `TOOL_FAILED`, naming what threw. The run goes on.

/** A hook that threw (`UserPromptSubmit`, `PreToolUse`, `PostToolUse`). */
export function hookFailure(hook: string, error: unknown): AgentError {
  return new AgentError('TOOL_FAILED', `${hook} hook failed: ${errorMessage(error)}`, {
    cause: error,
    context: { hook },
  });
}

/** A callback in the options that threw (`onToolInputDelta`, `repairToolInput`…). */
export function callbackFailure(callback: string, error: unknown): AgentError {
  return new AgentError('TOOL_FAILED', `${callback} failed: ${errorMessage(error)}`, {
    cause: error,
    context: { callback },
  });
}
