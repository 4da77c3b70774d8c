import type { AgentError } from '../errors/agent-error.js';
import type { AgentOptions } from './agent-options.js';

/** Reports an error that does not stop a run to `onError`, else as a console warning. */
export function reportFor(options: AgentOptions): (error: AgentError) => void {
  return (error) => {
    if (options.onError) options.onError(error);
    else console.warn(`open-agent: ${error.message}`);
  };
}
