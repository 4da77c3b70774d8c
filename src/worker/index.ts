/**
 * `open-agent/worker`: what runs inside a Web Worker. Import it from the worker module
 * only; it touches the worker's global scope when `exposeTools` is called.
 * @packageDocumentation
 */
export { exposeTools } from './expose-tools.js';
export type { ExposeToolsOptions, ToolHandler, ToolHandlerContext } from './expose-tools.js';
export type { WorkerScope } from './worker-scope.js';
export { AgentError, isAgentError } from '../errors/agent-error.js';
export type { AgentErrorCode } from '../errors/agent-error.js';
