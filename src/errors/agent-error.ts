/** Every error code the runtime reports. Stable: apps switch on these. */
export const AGENT_ERROR_CODES = [
  'MAX_ITERATIONS',
  'SUBMIT_BEFORE_OUTPUT',
  'INVALID_RESPONSE',
  'EXECUTION_CANCELLED',
  'VALIDATION_FAILED',
  'HTTP_ERROR',
  'NETWORK_ERROR',
  'STREAM_ERROR',
  'STREAM_TRUNCATED',
  'TOOL_NOT_FOUND',
  'INVALID_TOOL_INPUT',
  'TOOL_FAILED',
  'TOOL_TIMEOUT',
  'TOOL_DENIED',
  'WORKER_FAILED',
  'STORAGE_FAILED',
  'CONTEXT_OVERFLOW',
] as const;

/** A machine-readable reason for an {@link AgentError}. */
export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number];

/** Options for {@link AgentError}: the cause and typed context fields. */
export interface AgentErrorOptions {
  /** The underlying error, kept for debugging. */
  cause?: unknown;
  /** HTTP status, for `HTTP_ERROR`. */
  status?: number;
  /** Extra facts about the failure (tool name, attempt, raw data…). JSON-safe. */
  context?: Record<string, unknown>;
}

/** The JSON form of an {@link AgentError}: what crosses `postMessage` and storage. */
export interface AgentErrorJSON {
  name: 'AgentError';
  code: AgentErrorCode;
  message: string;
  status?: number;
  context?: Record<string, unknown>;
}

/**
 * The one error class of open-agent. Check `code` (or use {@link isAgentError}), not
 * `instanceof`: errors are rebuilt after crossing workers and iframes.
 *
 * @example
 * try { for await (const event of query('hi', options)) render(event); }
 * catch (error) { if (isAgentError(error) && error.code === 'NETWORK_ERROR') showCorsHelp(error.message); }
 */
export class AgentError extends Error {
  override readonly name = 'AgentError' as const;
  readonly code: AgentErrorCode;
  readonly status: number | undefined;
  readonly context: Record<string, unknown> | undefined;

  constructor(code: AgentErrorCode, message: string, options: AgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.context = options.context;
  }

  /** A JSON-safe copy (no cause, no stack) that {@link AgentError.fromJSON} rebuilds. */
  toJSON(): AgentErrorJSON {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.context === undefined ? {} : { context: this.context }),
    };
  }

  /** Rebuilds an error sent as JSON; unknown shapes become `fallbackCode` errors. */
  static fromJSON(value: unknown, fallbackCode: AgentErrorCode = 'TOOL_FAILED'): AgentError {
    if (typeof value !== 'object' || value === null) {
      return new AgentError(fallbackCode, String(value));
    }
    const record = value as Record<string, unknown>; // narrowed field by field below
    const code = isAgentErrorCode(record.code) ? record.code : fallbackCode;
    const message = typeof record.message === 'string' ? record.message : 'Unknown error';
    const context =
      typeof record.context === 'object' && record.context !== null
        ? (record.context as Record<string, unknown>) // plain JSON object from toJSON()
        : undefined;
    return new AgentError(code, message, {
      ...(typeof record.status === 'number' ? { status: record.status } : {}),
      ...(context ? { context } : {}),
    });
  }
}

/** True for a known {@link AgentErrorCode} string. */
export function isAgentErrorCode(value: unknown): value is AgentErrorCode {
  return typeof value === 'string' && (AGENT_ERROR_CODES as readonly string[]).includes(value);
}

/**
 * True for an {@link AgentError}, also one from another realm (worker, iframe): checks
 * `name` and `code`, not the prototype.
 */
export function isAgentError(value: unknown, code?: AgentErrorCode): value is AgentError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { name?: unknown; code?: unknown };
  return (
    candidate.name === 'AgentError' &&
    isAgentErrorCode(candidate.code) &&
    (code === undefined || candidate.code === code)
  );
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** True for the error an aborted `fetch` or `AbortSignal.throwIfAborted()` throws. */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    ((error as { name?: unknown }).name === 'AbortError' ||
      (error as { name?: unknown }).name === 'TimeoutError' ||
      isAgentError(error, 'EXECUTION_CANCELLED'))
  );
}

// What `onError` (and the `tool_use_error` of a run) hears when the app's own code, handed to
// the runtime, threw: `TOOL_FAILED`, naming what threw. The run goes on. Here rather than in a
// file of their own: lazy modules (tool-execution's hooks, tool-input-repair) build them too,
// and esbuild gives each module that the first load shares with lazy ones a chunk of its own.

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
