/**
 * The contract between `javascriptTool` (page) and the sandbox worker: the one tool the
 * worker exposes, what it receives and what it answers. Both sides import this file.
 */

/** The handler name the sandbox worker exposes (not the name the model sees). */
export const SANDBOX_TOOL_NAME = 'run_sandboxed_javascript';

/**
 * Globals the sandbox removes before the model's code runs, unless allowed: network
 * (fetch, XHR, sockets, SSE, WebTransport, remote fonts, importScripts), storage shared with
 * the app (IndexedDB, Cache Storage), channels to the app's other contexts, nested workers.
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

/** A global the sandbox can be told to keep: `javascriptTool({ allow: ['fetch'] })`. */
export type SandboxGlobal = (typeof SANDBOX_GLOBALS)[number];

/** What the page sends for one run. */
export interface SandboxRequest {
  code: string;
  allow: SandboxGlobal[];
  maxOutputChars: number;
}

/** An error thrown by the model's code (or a syntax error in it). */
export interface JavaScriptError {
  name: string;
  message: string;
  /** 1-based line in the model's code, when the engine reported one. */
  line?: number;
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

/** True for a known {@link SandboxGlobal} name. */
export function isSandboxGlobal(value: unknown): value is SandboxGlobal {
  return typeof value === 'string' && (SANDBOX_GLOBALS as readonly string[]).includes(value);
}

/** The request in a call's input, or `undefined` when it is not one. */
export function parseSandboxRequest(input: Record<string, unknown>): SandboxRequest | undefined {
  const { code, allow, maxOutputChars } = input;
  if (typeof code !== 'string' || !Array.isArray(allow) || !allow.every(isSandboxGlobal))
    return undefined;
  if (
    typeof maxOutputChars !== 'number' ||
    !Number.isSafeInteger(maxOutputChars) ||
    maxOutputChars < 1
  )
    return undefined;
  return { code, allow, maxOutputChars };
}

/** Checks the worker's answer before the page hands it on. */
export function isJavaScriptResult(value: unknown): value is JavaScriptResult {
  if (typeof value !== 'object' || value === null) return false;
  const { logs, error, truncated } = value as Record<string, unknown>; // each field checked below
  return (
    Array.isArray(logs) &&
    logs.every((entry) => typeof entry === 'string') &&
    (truncated === undefined || typeof truncated === 'string') &&
    (error === undefined || isJavaScriptError(error))
  );
}

function isJavaScriptError(value: unknown): value is JavaScriptError {
  if (typeof value !== 'object' || value === null) return false;
  const { name, message, line } = value as Record<string, unknown>; // each field checked below
  return (
    typeof name === 'string' &&
    typeof message === 'string' &&
    (line === undefined || typeof line === 'number')
  );
}
