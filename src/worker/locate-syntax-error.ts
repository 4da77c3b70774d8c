import { AsyncFunction } from './async-function.js';

/** Anything that dispatches the worker's `error` events (the global scope, in the sandbox). */
interface ErrorEventTarget {
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  removeEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * The 1-based line of the syntax error in `code` (a function body), whose SyntaxError said
 * `message`. The SyntaxError that `new Function` throws has no position (Chromium 156:
 * message only), but the same source compiled as a timer script reports its error through
 * the global `error` event with `lineno`. Probes run one at a time, since the event does not
 * say which script failed; an engine that reports nothing falls back to re-parsing prefixes.
 */
export function locateSyntaxError(
  code: string,
  message: string,
  scope: ErrorEventTarget = self,
): Promise<number | undefined> {
  const located = queue.then(() => probeWithTimer(code, scope));
  queue = located.catch(() => undefined);
  return located.then((line) => line ?? locateByPrefixes(code, message));
}

function probeWithTimer(code: string, scope: ErrorEventTarget): Promise<number | undefined> {
  const lineCount = code.split('\n').length;
  return new Promise((resolve) => {
    const finish = (line: number | undefined) => {
      scope.removeEventListener('error', onError);
      resolve(line);
    };
    const onError = (event: ErrorEvent) => {
      event.preventDefault();
      // One header line; an unclosed block fails on the wrapper's closing `})`, after the code.
      finish(event.lineno > 0 ? Math.min(Math.max(event.lineno - 1, 1), lineCount) : undefined);
    };
    scope.addEventListener('error', onError);
    try {
      // A string timer is compiled as a classic script, like eval; the function is never called.
      // The DOM typings declare only the callback form; the string form is standard HTML.
      (setTimeout as unknown as (source: string) => void)(
        `(async function (console) {\n${code}\n})`,
      );
    } catch {
      finish(undefined);
      return;
    }
    // Timers with the same delay run in order: this one runs after the script has failed.
    setTimeout(() => finish(undefined));
  });
}

/**
 * The shortest run of leading lines that fails with the same message; "end of input" errors
 * belong to the last line. Misplaces unclosed blocks (they fail on the wrapper's `})`).
 */
export function locateByPrefixes(code: string, message: string): number | undefined {
  const lines = code.split('\n');
  if (/end of input/i.test(message)) return lines.length;
  const failsSame = (count: number) => {
    try {
      new AsyncFunction('console', lines.slice(0, count).join('\n'));
      return false;
    } catch (error) {
      return error instanceof Error && error.message === message;
    }
  };
  if (!failsSame(lines.length)) return undefined;
  let low = 1;
  let high = lines.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (failsSame(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}
