/**
 * The contract between `javascriptTool` (page) and the sandbox worker: the one tool the
 * worker exposes, what it receives and what it answers. Both sides import this file.
 */

/** The handler name the sandbox worker exposes (not the name the model sees). */
export const SANDBOX_TOOL_NAME = 'run_sandboxed_javascript';

/**
 * Browser globals the sandbox used to delete from its worker, kept for code that imports
 * the list. The sandbox now runs the model's code in a QuickJS engine where none of these
 * (nor any other browser API) exists.
 *
 * @deprecated The sandbox has no browser globals at all; there is nothing to allow.
 */
export const SANDBOX_GLOBALS = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebTransport',
  'EventSource',
  'FontFace',
  'importScripts',
  'indexedDB',
  'caches',
  'BroadcastChannel',
  'Worker',
  'SharedWorker',
] as const;

/**
 * A name from {@link SANDBOX_GLOBALS}.
 *
 * @deprecated See {@link SANDBOX_GLOBALS}.
 */
export type SandboxGlobal = (typeof SANDBOX_GLOBALS)[number];

/** What the page sends for one run. */
export interface SandboxRequest {
  code: string;
  maxOutputChars: number;
  /** The engine stops the code after this long (its run time, timers included). */
  timeoutMs: number;
  /** The engine's whole memory, its own ~16 MB included. */
  memoryLimitBytes: number;
  /** Where the worker fetches the QuickJS wasm from (the page's bundler resolved it). */
  engineUrl: string;
  /** Origins the code may `fetch` from (the `fetchOrigins` capability); empty: no `fetch`. */
  fetchOrigins: string[];
}

/** An error thrown by the model's code (or a syntax error in it). */
export interface JavaScriptError {
  name: string;
  message: string;
  /** 1-based line in the model's code, when the engine reported one. */
  line?: number;
  /** 1-based column in that line, when the engine reported one. */
  column?: number;
}

/** The JSON-safe answer of one run: what the model reads. */
export interface JavaScriptResult {
  /** The value of the last expression or of a top-level `return`, made JSON-safe; absent for `undefined`. */
  result?: unknown;
  /** Console output, one entry per call; levels other than `log` are prefixed: `[warn] …`. */
  logs: string[];
  error?: JavaScriptError;
  /** Present when output went over the limit: says what was cut. */
  truncated?: string;
}

/** What the worker sends back: a {@link JavaScriptResult} whose result is still JSON text. */
export interface SandboxAnswer {
  logs: string[];
  /** The result as JSON text (a cut result is a JSON string); absent for `undefined`. */
  resultJson?: string;
  error?: JavaScriptError;
  truncated?: string;
}

/** The engine's own memory at start (QuickJS release build): the smallest memory limit. */
export const MIN_MEMORY_LIMIT_BYTES = 16 * 1024 * 1024;

/** Longest error message kept: a thrown 1 MB string must not flood the model. */
export const MAX_ERROR_MESSAGE = 2_000;
const MAX_ERROR_NAME = 200;
const MAX_NOTE = 500;

/** The request in a call's input, or `undefined` when it is not one. */
export function parseSandboxRequest(input: Record<string, unknown>): SandboxRequest | undefined {
  const { code, maxOutputChars, timeoutMs, memoryLimitBytes, engineUrl, fetchOrigins } = input;
  if (typeof code !== 'string' || typeof engineUrl !== 'string') return undefined;
  if (!Array.isArray(fetchOrigins) || !fetchOrigins.every((origin) => typeof origin === 'string'))
    return undefined;
  if (!isPositiveInteger(maxOutputChars) || !isPositiveInteger(memoryLimitBytes)) return undefined;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) return undefined;
  return { code, maxOutputChars, timeoutMs, memoryLimitBytes, engineUrl, fetchOrigins };
}

/**
 * The page's check of what came back from the worker, whatever sent it: only strings,
 * numbers and JSON text of bounded size are accepted, and the result is parsed here, so
 * what reaches the model and the UI is plain JSON data within `maxOutputChars`. `undefined`
 * when the answer breaks any of that.
 */
export function readSandboxAnswer(
  value: unknown,
  maxOutputChars: number,
): JavaScriptResult | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { logs, resultJson, error, truncated } = value as Record<string, unknown>; // each field checked below
  if (!Array.isArray(logs) || !logs.every((entry) => typeof entry === 'string')) return undefined;
  // A cut log entry ends in "…", so each may be one character over its share.
  const logChars = logs.reduce((sum: number, entry: string) => sum + entry.length, 0);
  if (logChars > maxOutputChars + logs.length) return undefined;
  if (truncated !== undefined && (typeof truncated !== 'string' || truncated.length > MAX_NOTE))
    return undefined;
  if (error !== undefined && !isJavaScriptError(error)) return undefined;
  const answer: JavaScriptResult = { logs: [...logs] };
  if (resultJson !== undefined) {
    // JSON escapes take up to 6 characters per character (\u0000); the parsed value is checked too.
    if (typeof resultJson !== 'string' || resultJson.length > maxOutputChars * 6 + 2)
      return undefined;
    let result: unknown;
    try {
      result = JSON.parse(resultJson);
    } catch {
      return undefined;
    }
    if (
      typeof result === 'string'
        ? result.length > maxOutputChars + 1
        : resultJson.length > maxOutputChars
    )
      return undefined;
    answer.result = result;
  }
  if (error !== undefined) {
    const { name, message, line, column } = error;
    answer.error = {
      name,
      message,
      ...(line === undefined ? {} : { line }),
      ...(column === undefined ? {} : { column }),
    };
  }
  if (truncated !== undefined) answer.truncated = truncated;
  return answer;
}

function isJavaScriptError(value: unknown): value is JavaScriptError {
  if (typeof value !== 'object' || value === null) return false;
  const { name, message, line, column } = value as Record<string, unknown>; // each field checked below
  return (
    typeof name === 'string' &&
    name.length <= MAX_ERROR_NAME &&
    typeof message === 'string' &&
    message.length <= MAX_ERROR_MESSAGE + 1 &&
    (line === undefined || isPositiveInteger(line)) &&
    (column === undefined || isPositiveInteger(column))
  );
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}
