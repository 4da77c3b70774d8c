import { AgentError, errorMessage, isAgentError } from '../errors/agent-error.js';
import type { Tool } from './tool.js';

/** What running a tool produced: its value, or the error to report to the model. */
export type ToolOutcome = { ok: true; content: unknown } | { ok: false; error: AgentError };

/**
 * Runs `tool.execute` on validated input, with the run's signal and the tool's own
 * timeout. Never throws: a throwing tool is `TOOL_FAILED`, a slow one `TOOL_TIMEOUT`
 * (its signal is aborted), an aborted run `EXECUTION_CANCELLED`. The outcome of a tool
 * that answers synchronously, when nothing can stop it (no signal, no timeout), comes
 * back synchronously: no promise per call.
 */
export function executeTool(
  tool: Tool,
  input: Record<string, unknown>,
  options: { signal?: AbortSignal | undefined; toolUseId: string },
): ToolOutcome | Promise<ToolOutcome> {
  const { execute } = tool;
  if (!execute) {
    return {
      ok: false,
      error: new AgentError('TOOL_FAILED', `Tool "${tool.name}" has no execute function`),
    };
  }
  if (options.signal !== undefined || tool.timeoutMs !== undefined)
    return executeStoppable(tool, execute, input, options);
  // Nothing can stop this call: run the tool itself, without a race, a timer or a listener —
  // and without a signal until the tool asks for one (this one never aborts).
  let controller: AbortController | undefined;
  const context = {
    get signal() {
      return (controller ??= new AbortController()).signal;
    },
    toolUseId: options.toolUseId,
  };
  try {
    const content = execute(input, context);
    // Hot path: per call. A promise told apart inline; `then` only read, once.
    if (
      (typeof content !== 'object' && typeof content !== 'function') ||
      content === null ||
      typeof (content as { then?: unknown }).then !== 'function'
    )
      return { ok: true, content };
    return Promise.resolve(content as PromiseLike<unknown>).then(
      (value): ToolOutcome => ({ ok: true, content: value }),
      (error: unknown) => failure(tool, error),
    );
  } catch (error) {
    return failure(tool, error);
  }
}

async function executeStoppable(
  tool: Tool,
  execute: NonNullable<Tool['execute']>,
  input: Record<string, unknown>,
  options: { signal?: AbortSignal | undefined; toolUseId: string },
): Promise<ToolOutcome> {
  const controller = new AbortController();
  const context = { signal: controller.signal, toolUseId: options.toolUseId };
  const { signal } = options;
  const cancelled = () =>
    new AgentError('EXECUTION_CANCELLED', `Tool "${tool.name}" was cancelled`);
  let settle: ((error: AgentError) => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    settle = (error) => {
      controller.abort(error);
      reject(error);
    };
  });
  const onAbort = () => settle?.(cancelled());
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    tool.timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            settle?.(
              new AgentError(
                'TOOL_TIMEOUT',
                `Tool "${tool.name}" timed out after ${tool.timeoutMs} ms`,
              ),
            ),
          tool.timeoutMs,
        );
  try {
    if (signal?.aborted) throw cancelled();
    const content: unknown = await Promise.race([
      Promise.resolve().then(() => execute(input, context)),
      stopped,
    ]);
    return { ok: true, content };
  } catch (error) {
    return failure(tool, error);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    stopped.catch(() => undefined);
  }
}

/** What a tool that threw (or was stopped) reports to the model. */
function failure(tool: Tool, error: unknown): ToolOutcome {
  if (isAgentError(error)) {
    // Errors rebuilt from a worker keep their code; plain AgentErrors thrown by a tool
    // (e.g. a rethrown HTTP_ERROR) stay what they are.
    return { ok: false, error: error instanceof AgentError ? error : AgentError.fromJSON(error) };
  }
  return {
    ok: false,
    error: new AgentError('TOOL_FAILED', `Tool "${tool.name}" failed: ${errorMessage(error)}`, {
      cause: error,
    }),
  };
}
