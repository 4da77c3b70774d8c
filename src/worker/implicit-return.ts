/** How many statement boundaries, from the end, are tried as the start of the last expression. */
const MAX_CANDIDATES = 200;
const DECLARATION = /^\s*(?:async\s+function\b|function\b|class\b)/;

/**
 * `code` with its last expression statement turned into `return (…)`, or `undefined` when
 * it does not end with one; `compiles(body)` says whether a function body parses (the
 * engine that will run it decides, nothing runs). Without a parser of our own, candidates
 * are the starts of lines and the points after `;`, tried longest first; the first that
 * parses as an expression, after a prefix that parses on its own, wins. Longest first keeps
 * `a\n+ b` whole; the prefix check keeps `for (…)\n  total += x` a loop. `return (` goes on
 * the same line and `)` on a new one, so line numbers and a trailing `//` comment are
 * unaffected.
 */
export function withImplicitReturn(
  code: string,
  compiles: (body: string) => boolean,
): string | undefined {
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
