import {
  AgentError,
  errorMessage,
  isAbortError,
  isAgentError,
  isAgentErrorCode,
} from '../errors/agent-error.js';
import type { AgentErrorJSON } from '../errors/agent-error.js';
import { assertNever } from '../types/events.js';
import {
  parseHostMessage,
  type ToolCallMessage,
  type WorkerMessage,
} from '../tools/worker-protocol.js';
import { currentWorkerScope, type WorkerScope } from './worker-scope.js';

/** What a handler receives besides its input. */
export interface ToolHandlerContext {
  /** Aborted when the page cancels the call or it times out; `reason` is the `AgentError`. */
  signal: AbortSignal;
  /** The id of the model's tool call. */
  toolUseId: string;
}

/**
 * Runs one tool in the worker. `input` was validated against the tool's schema on the
 * page, so a handler may declare its parsed type. Return any structured-cloneable value
 * (or a promise of one); throw an `AgentError` to choose the code the page sees.
 */
// Method syntax makes the parameter bivariant, so `({ a }: { a: number }) => a` is accepted.
export type ToolHandler = {
  handle(input: Record<string, unknown>, context: ToolHandlerContext): unknown;
}['handle'];

/** Options for {@link exposeTools}. */
export interface ExposeToolsOptions {
  /** The scope to listen on; defaults to the worker's global scope (tests pass a `MessagePort`). */
  scope?: WorkerScope;
}

/**
 * Serves tool calls from the page (`workerTool` / `connectWorker`) in this worker. Call it
 * once, at the top of the worker module (or after async setup: the page waits for it);
 * a second call throws.
 * Handlers run concurrently; each gets an `AbortSignal` that fires when the page cancels.
 *
 * @example
 * // tools.worker.ts
 * import { AgentError, exposeTools } from 'open-agent/worker';
 * exposeTools({
 *   sha256: async ({ text }: { text: string }) => hex(await crypto.subtle.digest('SHA-256', encode(text))),
 *   fetch_page: async ({ url }: { url: string }, { signal }) => {
 *     const response = await fetch(url, { signal });
 *     if (!response.ok) throw new AgentError('HTTP_ERROR', `GET ${url} answered ${response.status}`, { status: response.status });
 *     return response.text();
 *   },
 * });
 */
export function exposeTools(
  handlers: Record<string, ToolHandler>,
  options: ExposeToolsOptions = {},
): void {
  const scope = options.scope ?? currentWorkerScope();
  // A second listener would answer every call twice, the second time with TOOL_NOT_FOUND.
  if (exposedScopes.has(scope)) {
    throw new Error(
      'exposeTools() was already called in this worker: pass all handlers in one call',
    );
  }
  exposedScopes.add(scope);
  const running = new Map<number, AbortController>();
  const post = (message: WorkerMessage) => scope.postMessage(message);

  const run = async (call: ToolCallMessage): Promise<void> => {
    const handler = Object.hasOwn(handlers, call.name) ? handlers[call.name] : undefined;
    if (!handler) {
      const available = Object.keys(handlers).join(', ') || 'none';
      const error = new AgentError(
        'TOOL_NOT_FOUND',
        `Tool "${call.name}" is not exposed by its worker (available: ${available})`,
      );
      post({ type: 'tool-error', id: call.id, error: error.toJSON() });
      return;
    }
    const controller = new AbortController();
    running.set(call.id, controller);
    try {
      const value: unknown = await handler(call.input, {
        signal: controller.signal,
        toolUseId: call.toolUseId,
      });
      try {
        post({ type: 'tool-result', id: call.id, value });
      } catch (error) {
        // DataCloneError: the value holds functions, symbols, WeakMaps or the like.
        const message = `Tool "${call.name}" returned a value that cannot be sent to the page: ${errorMessage(error)}`;
        post({
          type: 'tool-error',
          id: call.id,
          error: new AgentError('TOOL_FAILED', message).toJSON(),
        });
      }
    } catch (error) {
      const json = toErrorJSON(error, call.name);
      try {
        post({ type: 'tool-error', id: call.id, error: json });
      } catch {
        // An AgentError whose context holds something structured clone refuses: drop the context.
        post({
          type: 'tool-error',
          id: call.id,
          error: { name: json.name, code: json.code, message: json.message },
        });
      }
    } finally {
      running.delete(call.id);
    }
  };

  scope.addEventListener('message', (event) => {
    const message = parseHostMessage(event.data);
    if (!message) return;
    switch (message.type) {
      case 'tool-call':
        void run(message);
        return;
      case 'tool-cancel':
        running.get(message.id)?.abort(AgentError.fromJSON(message.reason, 'EXECUTION_CANCELLED'));
        return;
      default:
        assertNever(message);
    }
  });
  post({ type: 'tools-ready' });
}

const exposedScopes = new WeakSet<WorkerScope>();

/**
 * The JSON form of whatever a handler threw: an `AgentError` (or any error carrying a known
 * `code`) keeps its code; anything else is `TOOL_FAILED` with the original message.
 */
function toErrorJSON(error: unknown, toolName: string): AgentErrorJSON {
  if (isAgentError(error)) return AgentError.fromJSON(error).toJSON();
  // Any non-null object may be read for an optional `code`; it is checked just below.
  const code: unknown =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (isAgentErrorCode(code)) {
    return new AgentError(code, errorMessage(error), { context: { tool: toolName } }).toJSON();
  }
  if (isAbortError(error)) {
    return new AgentError('EXECUTION_CANCELLED', `Tool "${toolName}" was cancelled`, {
      context: { tool: toolName },
    }).toJSON();
  }
  const errorName = error instanceof Error ? error.name : typeof error;
  return new AgentError('TOOL_FAILED', `Tool "${toolName}" failed: ${errorMessage(error)}`, {
    context: { tool: toolName, errorName },
  }).toJSON();
}
