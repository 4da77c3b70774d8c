export {
  AGENT_ERROR_CODES,
  AgentError,
  errorMessage,
  isAbortError,
  isAgentError,
  isAgentErrorCode,
} from './agent-error.js';
export type { AgentErrorCode, AgentErrorJSON, AgentErrorOptions } from './agent-error.js';
