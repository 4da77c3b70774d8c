import { createFetchBackend } from '../backend/fetch-backend.js';
import type { ChatBackend } from '../types/chat-request.js';
import type { AgentOptions } from './agent-options.js';

/**
 * The transport for these options: `backend`, else a fetch backend for `baseURL`.
 * @throws TypeError when neither is given.
 */
export function backendFor(options: AgentOptions): ChatBackend {
  if (options.backend) return options.backend;
  if (!options.baseURL) {
    throw new TypeError('AgentOptions needs a baseURL (an OpenAI-compatible server) or a backend');
  }
  return createFetchBackend({
    baseURL: options.baseURL,
    ...(options.api ? { api: options.api } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
  });
}
