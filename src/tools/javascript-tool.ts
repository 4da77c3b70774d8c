import { AgentError, isAgentError } from '../errors/agent-error.js';
import {
  MIN_MEMORY_LIMIT_BYTES,
  readSandboxAnswer,
  SANDBOX_TOOL_NAME,
  type JavaScriptResult,
  type SandboxGlobal,
} from './javascript-sandbox-protocol.js';
import { tool, type NeedsApproval, type Tool } from './tool.js';
import { connectWorker } from './worker-connection.js';

/** Options for {@link javascriptTool}. */
export interface JavaScriptToolOptions {
  /** The name the model calls. Default `run_javascript`. */
  name?: string;
  /** Replaces the generated description (which states the limits below). */
  description?: string;
  /**
   * Time limit per run: the engine stops the code after this long (timers and awaits
   * included) and the call fails with `TOOL_TIMEOUT`; the engine survives for the next
   * run. As a backstop, a worker that has not answered 2 s after that (this covers
   * starting the engine) is terminated. Default 5000 ms.
   */
  timeoutMs?: number;
  /** Cap on console output plus result JSON, in characters; the answer says what was cut. Default 10 000. */
  maxOutputChars?: number;
  /**
   * The engine's whole memory, in bytes, its own 16 MiB at start included: an allocation
   * past it fails and the run reports `out of memory`. Default 64 MiB; at least 16 MiB.
   */
  memoryLimitBytes?: number;
  /**
   * A capability, off by default: lets the code call `fetch(url, { method, headers, body })`
   * for URLs on these origins only (e.g. `['https://api.example.com']`). The worker makes
   * the request on the code's behalf — from the page's origin, so the server must allow it
   * (CORS) — without cookies or HTTP auth, without following redirects, and hands back a
   * small Response-like object (`ok`, `status`, `headers.get`, `text()`, `json()`; bodies up
   * to 1 MB). What it opens: the code can send anything it has (its input, the conversation
   * the model put in it) to those origins, and read what they answer.
   */
  fetchOrigins?: readonly string[];
  /**
   * @deprecated The sandbox is a QuickJS engine with no browser globals at all, so there is
   * nothing to keep; a non-empty list throws, rather than silently granting nothing.
   */
  allow?: readonly SandboxGlobal[];
  /** Ask the user before running the model's code. */
  needsApproval?: NeedsApproval<{ code: string }>;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_OUTPUT_CHARS = 10_000;
const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
/** How long past `timeoutMs` the page waits for the engine before terminating its worker. */
const BACKSTOP_MS = 2_000;

/**
 * The engine's wasm, named from the page side: a bundler that rebuilds this file (a
 * consumer's Vite processing dist/) sees `new URL('…wasm', import.meta.url)` and emits the
 * file, while it copies the worker chunk as it is. A plain `new URL`, not an import, so that
 * bundlers without asset imports (esbuild) leave it alone; `?no-inline` keeps Vite's library
 * build from inlining 500 kB as base64. Only a URL: nothing is fetched before the first run.
 */
const engineUrl = new URL(
  '../../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm?no-inline',
  import.meta.url,
).href;

// A literal `new Worker(new URL(…, import.meta.url))`: the pattern Vite, webpack 5 and Parcel
// rewrite, so the sandbox ships as its own chunk next to the library build (needs `base: './'`).
const createSandboxWorker = () =>
  new Worker(new URL('../worker/sandbox-worker.ts', import.meta.url), { type: 'module' });

/**
 * A tool that runs JavaScript the model writes in an isolated engine: QuickJS compiled to
 * WebAssembly, inside a dedicated Web Worker, loaded when the tool is first called. The code
 * sees the language's built-ins, `console` (captured) and timers that end with the run —
 * no network, no storage, no DOM, no browser API of any kind, nothing of the page or of
 * earlier runs (each run gets a fresh engine context). CPU time, memory and output are
 * capped by the engine. The result is `{ result, logs, error?, truncated? }` (see
 * {@link JavaScriptResult}): `result` is the value of the last expression or of a
 * top-level `return` (top-level `await` works), as JSON-safe data checked again on the
 * page; `error` gives the line and column in the model's code. An error in the code is
 * part of the result, not a tool failure, so the model sees its logs too.
 *
 * One worker serves the tool's calls; it is spawned on first use.
 *
 * @example
 * const client = new Client({ model, baseURL, tools: [javascriptTool()], autoExecuteTools: true });
 * // the model calls run_javascript({ code: 'const xs = [3, 1, 2];\nxs.sort()' })
 * // → { result: [1, 2, 3], logs: [] }
 */
export function javascriptTool(options: JavaScriptToolOptions = {}): Tool {
  const name = options.name ?? 'run_javascript';
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const memoryLimitBytes = options.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
  const fetchOrigins = [...new Set(options.fetchOrigins ?? [])];
  checkOptions(name, {
    timeoutMs,
    maxOutputChars,
    memoryLimitBytes,
    fetchOrigins,
    allow: options.allow ?? [],
  });
  // No grace period: the code cannot see the cancel signal while it runs, so a stopped run
  // would only keep the worker busy.
  const connection = connectWorker(createSandboxWorker, { cancelGraceMs: 0 });
  const approval = options.needsApproval;
  const definition = tool({
    name,
    description: options.description ?? describe(timeoutMs, fetchOrigins),
    input: {
      type: 'object',
      properties: {
        code: {
          type: 'string',
          minLength: 1,
          description: 'JavaScript to run; the last expression is the result',
        },
      },
      required: ['code'],
      additionalProperties: false,
    },
    timeoutMs: timeoutMs + BACKSTOP_MS,
    ...(approval === undefined ? {} : { needsApproval: approvalOf(approval) }),
  });
  return {
    ...definition,
    execute: async (raw, { signal, toolUseId }): Promise<JavaScriptResult> => {
      await definition.prepare?.(); // a direct caller may not have prepared the tool
      const validation = definition.validate(raw);
      if (!validation.success) throw new AgentError('INVALID_TOOL_INPUT', validation.error);
      // The schema requires `code` to be a non-empty string.
      const code = validation.value.code as string;
      let value: unknown;
      try {
        value = await connection.call(
          SANDBOX_TOOL_NAME,
          { code, maxOutputChars, timeoutMs, memoryLimitBytes, engineUrl, fetchOrigins },
          { signal, toolUseId, timeoutMs: timeoutMs + BACKSTOP_MS },
        );
      } catch (error) {
        if (isAgentError(error) && error.code === 'TOOL_TIMEOUT') {
          throw new AgentError(
            'TOOL_TIMEOUT',
            `Tool "${name}" timed out: the code ran longer than ${timeoutMs} ms and was stopped`,
            { cause: error },
          );
        }
        throw error;
      }
      const answer = readSandboxAnswer(value, maxOutputChars);
      if (!answer) {
        throw new AgentError(
          'WORKER_FAILED',
          `Tool "${name}" got an answer of the wrong shape from its sandbox worker`,
        );
      }
      return answer;
    },
  };
}

/** The option's predicate over `{ code }`, on the validated input (which has a string `code`). */
function approvalOf(
  approval: NeedsApproval<{ code: string }>,
): NeedsApproval<Record<string, unknown>> {
  return typeof approval === 'boolean'
    ? approval
    : (input) => approval({ code: String(input.code) });
}

function checkOptions(
  name: string,
  options: {
    timeoutMs: number;
    maxOutputChars: number;
    memoryLimitBytes: number;
    fetchOrigins: readonly string[];
    allow: readonly unknown[];
  },
): void {
  for (const origin of options.fetchOrigins) {
    if (!isHttpOrigin(origin)) {
      throw new TypeError(
        `javascriptTool "${name}": fetchOrigins must be origins such as "https://api.example.com" (got "${origin}")`,
      );
    }
  }
  if (!(options.timeoutMs > 0))
    throw new TypeError(`javascriptTool "${name}": timeoutMs must be a positive number`);
  if (!Number.isSafeInteger(options.maxOutputChars) || options.maxOutputChars < 1) {
    throw new TypeError(`javascriptTool "${name}": maxOutputChars must be a positive integer`);
  }
  if (
    !Number.isSafeInteger(options.memoryLimitBytes) ||
    options.memoryLimitBytes < MIN_MEMORY_LIMIT_BYTES
  ) {
    throw new TypeError(
      `javascriptTool "${name}": memoryLimitBytes must be an integer of at least ${MIN_MEMORY_LIMIT_BYTES} (16 MiB)`,
    );
  }
  if (options.allow.length > 0) {
    throw new TypeError(
      `javascriptTool "${name}": \`allow\` is no longer supported: the sandbox is a QuickJS engine with no browser globals, so ${options.allow.join(', ')} cannot be kept. Give the code data through its input, or run trusted code with workerTool()`,
    );
  }
}

function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

function describe(timeoutMs: number, fetchOrigins: readonly string[]): string {
  return [
    'Runs JavaScript in an isolated QuickJS engine and returns { result, logs, error }.',
    'The value of the last expression (or of a top-level `return`) is the result; top-level `await` works;',
    'console.log/info/warn/error output is returned in `logs`.',
    'Only the language built-ins exist (plus console, setTimeout/setInterval):',
    fetchOrigins.length > 0
      ? `no DOM, no storage, no Intl; fetch(url, { method, headers, body }) works for ${fetchOrigins.join(', ')} only (no other network, no import()).`
      : 'no DOM, no network (fetch, XMLHttpRequest, import() are unavailable), no storage, no Intl.',
    `Each run must finish within ${timeoutMs / 1000} s. Variables do not persist between runs.`,
  ].join(' ');
}
