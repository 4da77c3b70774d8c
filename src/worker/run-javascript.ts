import type { JavaScriptError } from '../tools/javascript-sandbox-protocol.js';
import { AsyncFunction, type CodeFunction } from './async-function.js';
import { locateSyntaxError } from './locate-syntax-error.js';
import { formatForLog } from './to-json-safe.js';

/** Names the model's code in stack traces, so its frames can be told from the runtime's. */
const SOURCE_URL = 'javascript-tool-code.js';
const SOURCE_LINE = new RegExp(`${SOURCE_URL.replaceAll('.', '\\.')}:(\\d+):\\d+`);
/** Lines the engine puts before the body (`async function anonymous(console\n) {\n` in V8 and SpiderMonkey). */
const HEADER_LINES = (() => {
  const marker = '/*body*/';
  const source = new AsyncFunction('console', marker).toString();
  return source.slice(0, source.indexOf(marker)).split('\n').length - 1;
})();
/** How many statement boundaries, from the end, are tried as the start of the last expression. */
const MAX_CANDIDATES = 200;
const DECLARATION = /^\s*(?:async\s+function\b|function\b|class\b)/;

/** How the model's code ended. */
export type RunOutcome = { ok: true; value: unknown } | { ok: false; error: JavaScriptError };

/**
 * Runs the model's code as the body of an async function (so top-level `await` and
 * `return` work) whose `console` parameter is `console`. Without a top-level `return`, the
 * value of the last expression statement is the result, as in a REPL. Errors carry the
 * line in the model's code: runtime errors from the stack, syntax errors from a probe.
 */
export async function runJavaScript(code: string, console: unknown): Promise<RunOutcome> {
  let run: CodeFunction;
  try {
    run = compile(withImplicitReturn(code) ?? code);
  } catch (error) {
    return { ok: false, error: await describeSyntaxError(code, error) };
  }
  try {
    return { ok: true, value: await run(console) };
  } catch (error) {
    return { ok: false, error: describeThrown(error, code) };
  }
}

function compile(body: string): CodeFunction {
  // The comment goes on its own line so a trailing `//` comment in the code cannot swallow it.
  return new AsyncFunction('console', `${body}\n//# sourceURL=${SOURCE_URL}`);
}

function compiles(body: string): boolean {
  try {
    new AsyncFunction('console', body);
    return true;
  } catch {
    return false;
  }
}

/**
 * `code` with its last expression statement turned into `return (…)`, or `undefined` when
 * it does not end with one. Without a parser in the worker, candidates are the starts of
 * lines and the points after `;`, tried longest first; the first that parses as an
 * expression, after a prefix that parses on its own, wins. Longest first keeps `a\n+ b` whole;
 * the prefix check keeps `for (…)\n  total += x` a loop. `return (` goes on the same line and
 * `)` on a new one, so line numbers and a trailing `//` comment are unaffected.
 */
export function withImplicitReturn(code: string): string | undefined {
  const body = code.replace(/[\s;]+$/, '');
  const candidates = statementStarts(body).slice(-MAX_CANDIDATES);
  for (const start of candidates) {
    const expression = body.slice(start);
    if (expression.trim() === '' || DECLARATION.test(expression)) continue;
    if (!compiles(`return (${expression}\n)`)) continue;
    const prefix = body.slice(0, start);
    if (!compiles(prefix)) continue;
    return `${prefix}return (${expression}\n);`;
  }
  return undefined;
}

function statementStarts(body: string): number[] {
  const starts = [0];
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index];
    if (char === '\n' || char === ';') starts.push(index + 1);
  }
  return [...new Set(starts)].filter((start) => start < body.length);
}

function describeThrown(error: unknown, code: string): JavaScriptError {
  if (!(error instanceof Error)) return { name: 'Uncaught', message: formatForLog(error) };
  const match = SOURCE_LINE.exec(error.stack ?? '');
  const line = match ? Number(match[1]) - HEADER_LINES : undefined;
  const lineCount = code.split('\n').length;
  return {
    name: error.name,
    message: error.message,
    ...(line !== undefined && line >= 1 && line <= lineCount ? { line } : {}),
  };
}

async function describeSyntaxError(code: string, error: unknown): Promise<JavaScriptError> {
  const message = error instanceof Error ? error.message : String(error);
  const line = await locateSyntaxError(code, message);
  return {
    name: error instanceof Error ? error.name : 'SyntaxError',
    message,
    ...(line === undefined ? {} : { line }),
  };
}
