import { AgentError } from '../errors/agent-error.js';
import {
  isJavaScriptResult,
  isSandboxGlobal,
  SANDBOX_GLOBALS,
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
   * Time limit per run, counted from the call (so it includes starting a worker when none is
   * running); past it the worker is terminated (`TOOL_TIMEOUT`) and a fresh one used next
   * time. Default 5000 ms.
   */
  timeoutMs?: number;
  /** Cap on console output plus result JSON, in characters; the answer says what was cut. Default 10 000. */
  maxOutputChars?: number;
  /** Globals to keep, e.g. `['fetch']`. All of {@link SANDBOX_GLOBALS} are removed by default. */
  allow?: readonly SandboxGlobal[];
  /** Ask the user before running the model's code. */
  needsApproval?: NeedsApproval<{ code: string }>;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_OUTPUT_CHARS = 10_000;

// A literal `new Worker(new URL(…, import.meta.url))`: the pattern Vite, webpack 5 and Parcel
// rewrite, so the sandbox ships as its own chunk next to the library build (needs `base: './'`).
const createSandboxWorker = () =>
  new Worker(new URL('../worker/sandbox-worker.ts', import.meta.url), { type: 'module' });

/**
 * A tool that runs JavaScript the model writes in a dedicated Web Worker: no DOM, no
 * network or shared storage unless allowed, a time limit, captured console output. The
 * result is `{ result, logs, error?, truncated? }` (see {@link JavaScriptResult}): `result`
 * is the value of the last expression or of a top-level `return` (top-level `await`
 * works), made JSON-safe; `error` gives the line in the model's code. An error in the code
 * is part of the result, not a tool failure, so the model sees its logs too.
 *
 * One worker serves the tool's calls; it is spawned on first use. Variables do not survive
 * between calls. A fence against accidents, not a security boundary for hostile code.
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
  const allow = [...new Set(options.allow ?? [])];
  checkOptions(name, { timeoutMs, maxOutputChars, allow });
  // No grace period: the model's code never sees the cancel signal, so a stopped run would
  // only keep the worker busy.
  const connection = connectWorker(createSandboxWorker, { cancelGraceMs: 0 });
  const approval = options.needsApproval;
  const definition = tool({
    name,
    description: options.description ?? describe(allow, timeoutMs),
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
    timeoutMs,
    ...(approval === undefined ? {} : { needsApproval: approvalOf(approval) }),
  });
  return {
    ...definition,
    execute: async (raw, { signal, toolUseId }): Promise<JavaScriptResult> => {
      const validation = definition.validate(raw);
      if (!validation.success) throw new AgentError('INVALID_TOOL_INPUT', validation.error);
      // The schema requires `code` to be a non-empty string.
      const code = validation.value.code as string;
      const value = await connection.call(
        SANDBOX_TOOL_NAME,
        { code, allow, maxOutputChars },
        { signal, toolUseId, timeoutMs },
      );
      if (!isJavaScriptResult(value)) {
        throw new AgentError(
          'WORKER_FAILED',
          `Tool "${name}" got an answer of the wrong shape from its sandbox worker`,
        );
      }
      return value;
    },
  };
}

/** The option's predicate over `{ code }`, on the validated input (which has a string `code`). */
function approvalOf(approval: NeedsApproval<{ code: string }>): NeedsApproval<Record<string, unknown>> {
  return typeof approval === 'boolean' ? approval : (input) => approval({ code: String(input.code) });
}

function checkOptions(
  name: string,
  options: { timeoutMs: number; maxOutputChars: number; allow: readonly unknown[] },
): void {
  if (!(options.timeoutMs > 0))
    throw new TypeError(`javascriptTool "${name}": timeoutMs must be a positive number`);
  if (!Number.isSafeInteger(options.maxOutputChars) || options.maxOutputChars < 1) {
    throw new TypeError(`javascriptTool "${name}": maxOutputChars must be a positive integer`);
  }
  const unknownNames = options.allow.filter((global) => !isSandboxGlobal(global));
  if (unknownNames.length > 0) {
    throw new TypeError(
      `javascriptTool "${name}": cannot allow ${unknownNames.join(', ')} (known: ${SANDBOX_GLOBALS.join(', ')})`,
    );
  }
}

function describe(allow: readonly SandboxGlobal[], timeoutMs: number): string {
  const blocked = SANDBOX_GLOBALS.filter((name) => !allow.includes(name));
  return [
    'Runs JavaScript in a sandboxed Web Worker and returns { result, logs, error }.',
    'The value of the last expression (or of a top-level `return`) is the result; top-level `await` works;',
    'console.log/info/warn/error output is returned in `logs`.',
    'There is no DOM (no document or window).',
    blocked.length > 0 ? `These are unavailable: ${blocked.join(', ')}.` : '',
    allow.length > 0 ? `These are available: ${allow.join(', ')}.` : '',
    `Each run must finish within ${timeoutMs / 1000} s. Variables do not persist between runs.`,
  ]
    .filter(Boolean)
    .join(' ');
}
