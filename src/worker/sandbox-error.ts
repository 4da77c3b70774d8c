import type { JavaScriptError } from '../tools/javascript-sandbox-protocol.js';

/** QuickJS names code compiled by the `Function` constructors `<input>` in stack traces. */
const CODE_FRAME = /<input>:(\d+):(\d+)/;

/** The error of a run that used up the engine's memory (`memoryLimitBytes` in all). */
export function outOfMemory(memoryLimitBytes: number): JavaScriptError {
  const megabytes = Math.round(memoryLimitBytes / 2 ** 20);
  return {
    name: 'InternalError',
    message: `out of memory: the sandbox may use ${megabytes} MB in all`,
  };
}

/**
 * The {@link JavaScriptError} of a value the model's code threw, from the prelude's
 * `describe` (parsed JSON text, `undefined` when it could not be read): checked field by field,
 * out of memory said as such, and the place in the model's code (`code`, compiled after
 * `headerLines` lines of wrapper) when its stack has one.
 */
export function sandboxError(
  description: unknown,
  options: {
    code: string;
    headerLines: number;
    memoryLimitBytes: number;
    exhausted: () => boolean;
  },
): JavaScriptError {
  const { name, message, stack } = (description ?? {}) as Record<string, unknown>; // each field checked below
  if (typeof name !== 'string' || typeof message !== 'string') {
    return options.exhausted()
      ? outOfMemory(options.memoryLimitBytes)
      : { name: 'Error', message: 'The code threw a value that could not be described' };
  }
  // QuickJS throws `null` when it cannot even allocate its out-of-memory error.
  if (
    (name === 'InternalError' && message === 'out of memory') ||
    (name === 'Uncaught' && message === 'null' && options.exhausted())
  ) {
    return outOfMemory(options.memoryLimitBytes);
  }
  return { name, message, ...locate(typeof stack === 'string' ? stack : '', options) };
}

/** Line and column in the model's code of the innermost frame that is in it. */
function locate(
  stack: string,
  options: { code: string; headerLines: number },
): { line?: number; column?: number } {
  const match = CODE_FRAME.exec(stack);
  if (!match) return {};
  const line = Number(match[1]) - options.headerLines;
  const column = Number(match[2]);
  const lineCount = options.code.split('\n').length;
  if (!(line >= 1)) return {};
  // An unclosed block fails on the wrapper's closing brace, after the code: its last line.
  if (line > lineCount) return { line: lineCount };
  return column >= 1 ? { line, column } : { line };
}
