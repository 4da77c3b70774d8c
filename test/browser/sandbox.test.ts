import { describe, expect, test } from 'vitest';
import { executeTool } from '../../src/tools/execute-tool.js';
import type { JavaScriptResult } from '../../src/tools/javascript-sandbox-protocol.js';
import { javascriptTool } from '../../src/tools/javascript-tool.js';
import type { Tool } from '../../src/tools/tool.js';

const sandbox = javascriptTool();

let calls = 0;
/** Runs `code` through executeTool, the loop's path, and returns the sandbox's answer. */
async function run(code: string, tool: Tool = sandbox): Promise<JavaScriptResult> {
  await tool.prepare?.(); // the loop's path: its JSON Schema validator loads on demand
  const validation = tool.validate({ code });
  if (!validation.success) throw new Error(validation.error);
  const outcome = await executeTool(tool, validation.value, { toolUseId: `use-${++calls}` });
  if (!outcome.ok) throw outcome.error;
  return outcome.content as JavaScriptResult; // javascriptTool checked the shape (isJavaScriptResult)
}

describe('javascriptTool results', () => {
  test('the value of the last expression is the result', async () => {
    expect(await run('const xs = [3, 1, 2];\nxs.sort()')).toEqual({ result: [1, 2, 3], logs: [] });
  });

  test('a top-level return is the result', async () => {
    expect(await run('if (1 < 2) {\n  return "early";\n}\nreturn "late";')).toEqual({
      result: 'early',
      logs: [],
    });
  });

  test('top-level await works, and a last expression that is a promise is awaited', async () => {
    const result = await run(
      'const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms, ms));\nawait wait(1);\nwait(2)',
    );
    expect(result).toEqual({ result: 2, logs: [] });
  });

  test('an expression continued on the next line is kept whole', async () => {
    expect(await run('const a = 40\nconst b = a\n  + 2\nb')).toEqual({ result: 42, logs: [] });
    expect(await run('[1, 2, 3]\n  .map((n) => n * 2)\n  .reduce((x, y) => x + y) // sum')).toEqual(
      { result: 12, logs: [] },
    );
  });

  test('a loop without braces at the end still runs every iteration', async () => {
    const result = await run('const seen = []\nfor (const n of [1, 2, 3])\n  seen.push(n)');
    expect(result).toEqual({ logs: [] });
    expect(await run('const seen = []\nfor (const n of [1, 2, 3])\n  seen.push(n)\nseen')).toEqual({
      result: [1, 2, 3],
      logs: [],
    });
  });

  test('code ending in a statement has no result', async () => {
    expect(await run('let total = 0;\nfor (let i = 0; i < 3; i++) { total += i; }')).toEqual({
      logs: [],
    });
    expect(await run('function f() { return 1 }')).toEqual({ logs: [] });
  });

  test('console output is captured, with levels', async () => {
    const result = await run(
      'console.log("hello", 42, { a: [1, 2] });\nconsole.warn("careful");\nconsole.error(new TypeError("bad"));\nconsole.info(undefined, null)',
    );
    expect(result.logs).toEqual([
      'hello 42 {"a":[1,2]}',
      '[warn] careful',
      '[error] TypeError: bad',
      '[info] undefined null',
    ]);
  });

  test('values that JSON cannot carry are made readable', async () => {
    const code = [
      'const cyclic = { name: "loop" }; cyclic.self = cyclic;',
      'return { nan: NaN, big: 10n, date: new Date(0), map: new Map([["k", 1]]), set: new Set([1]),',
      '  fn: function area() {}, cyclic, missing: undefined, error: new RangeError("r"), sym: Symbol("s") };',
    ].join('\n');
    expect((await run(code)).result).toEqual({
      nan: 'NaN',
      big: '10n',
      date: '1970-01-01T00:00:00.000Z',
      map: [['k', 1]],
      set: [1],
      fn: '[Function: area]',
      cyclic: { name: 'loop', self: '[Circular]' },
      error: { name: 'RangeError', message: 'r' },
      sym: 'Symbol(s)',
    });
  });
});

describe('everyday code', () => {
  test('arithmetic, JSON and string processing', async () => {
    const result = await run(
      [
        'const data = JSON.parse(\'{"items":[{"price":3.5,"qty":2},{"price":1.25,"qty":4}]}\');',
        'const total = data.items.reduce((sum, { price, qty }) => sum + price * qty, 0);',
        'const words = "the quick brown fox".split(" ").map((w) => w[0].toUpperCase() + w.slice(1));',
        '({ total, mean: total / data.items.length, words: words.join(" "), padded: "7".padStart(3, "0"), json: JSON.stringify({ a: [1, { b: null }] }, null, 1) })',
      ].join('\n'),
    );
    expect(result).toEqual({
      result: {
        total: 12,
        mean: 6,
        words: 'The Quick Brown Fox',
        padded: '007',
        json: '{\n "a": [\n  1,\n  {\n   "b": null\n  }\n ]\n}',
      },
      logs: [],
    });
  });

  test('Array, Map, Set, Date and RegExp', async () => {
    const result = await run(
      [
        'const counts = new Map();',
        'for (const word of "a b a c b a".split(" ")) counts.set(word, (counts.get(word) ?? 0) + 1);',
        'const sorted = [...counts].toSorted((x, y) => y[1] - x[1]);',
        'const date = new Date(Date.UTC(2024, 1, 29, 12, 30));',
        'const match = /(?<year>\\d{4})-(?<month>\\d{2})/u.exec("due 2025-07");',
        '[sorted, [...new Set([3, 1, 3, 2])], date.toISOString(), date.getUTCDay(), match.groups.year, /\\p{Lu}/u.test("É"), [1, [2, [3]]].flat(Infinity), Object.groupBy([1, 2, 3], (n) => (n % 2 ? "odd" : "even"))]',
      ].join('\n'),
    );
    expect(result.result).toEqual([
      [
        ['a', 3],
        ['b', 2],
        ['c', 1],
      ],
      [3, 1, 2],
      '2024-02-29T12:30:00.000Z',
      4,
      '2025',
      true,
      [1, 2, 3],
      { odd: [1, 3], even: [2] },
    ]);
  });

  test('Intl does not exist; locale methods fall back to a fixed English format', async () => {
    // QuickJS has no Intl: the model is told so in the tool description.
    const result = await run(
      '[typeof Intl, (1234567.891).toLocaleString("de-DE"), new Date(0).toLocaleDateString("de-DE", { timeZone: "UTC" }), "b".localeCompare("a")]',
    );
    expect(result.result).toEqual(['undefined', '1234567.891', '01/01/1970', 1]);
  });

  test('async functions, promises and timers', async () => {
    const result = await run(
      [
        'const sleep = (ms, value) => new Promise((resolve) => setTimeout(resolve, ms, value));',
        'async function double(n) { await sleep(1); return n * 2 }',
        'const all = await Promise.all([1, 2, 3].map(double));',
        'const first = await Promise.race([sleep(20, "slow"), sleep(1, "fast")]);',
        'const settled = await Promise.allSettled([Promise.reject(new Error("no")), 1]);',
        'let ticks = 0;',
        'await new Promise((resolve) => { const id = setInterval(() => { if (++ticks === 3) { clearInterval(id); resolve() } }, 1) });',
        'queueMicrotask(() => console.log("microtask"));',
        'console.log("sync");',
        '[all, first, settled.map((s) => s.status), ticks]',
      ].join('\n'),
    );
    expect(result).toEqual({
      result: [[2, 4, 6], 'fast', ['rejected', 'fulfilled'], 3],
      logs: ['sync', 'microtask'],
    });
  });
});

describe('javascriptTool errors', () => {
  test('a thrown error reports its line in the model code, with the logs before it', async () => {
    const result = await run('console.log("before");\nconst user = undefined;\nuser.name');
    expect(result).toEqual({
      logs: ['before'],
      error: {
        name: 'TypeError',
        message: "cannot read property 'name' of undefined",
        line: 3,
        column: 5,
      },
    });
  });

  test('an error thrown inside a function reports the line where it was thrown', async () => {
    const result = await run(
      'function check(n) {\n  if (n > 1) {\n    throw new RangeError(`too big: ${n}`);\n  }\n}\ncheck(1);\ncheck(2);',
    );
    expect(result.error).toEqual({
      name: 'RangeError',
      message: 'too big: 2',
      line: 3,
      column: 25,
    });
  });

  test('a syntax error reports its line', async () => {
    const result = await run('const a = 1;\nconst b = 2;\nconst c = ;\nconst d = 4;');
    expect(result).toEqual({
      logs: [],
      error: {
        name: 'SyntaxError',
        message: "unexpected token in expression: ';'",
        line: 3,
        column: 11,
      },
    });
  });

  test.each([
    ['an unclosed block', 3, 'function f() {\n  return 1;\n'],
    // QuickJS reports where the parser stopped: the `const` that cannot follow `2`.
    ['an unclosed call', 4, 'const n = 1;\nMath.max(n,\n  2\nconst m = 3;'],
    ['a redeclaration', 3, 'let x = 1;\nconsole.log(x);\nlet x = 2;'],
    ['a bad token at the start', 1, '@\nconst a = 1'],
  ])('a syntax error from %s reports line %i', async (_what, line, code) => {
    const result = await run(code);
    expect(result.error).toMatchObject({ name: 'SyntaxError', line });
  });

  test('throwing a non-Error value is reported', async () => {
    expect((await run('throw { reason: "nope" }')).error).toEqual({
      name: 'Uncaught',
      message: '{"reason":"nope"}',
    });
  });
});

describe('javascriptTool sandbox', () => {
  test('there is no DOM', async () => {
    expect((await run('[typeof document, typeof window, typeof self]')).result).toEqual([
      'undefined',
      'undefined',
      'undefined',
    ]);
    expect((await run('document.title')).error).toMatchObject({
      name: 'ReferenceError',
      message: "'document' is not defined",
      line: 1,
    });
  });

  test('the global scope holds the language built-ins, console and timers, nothing else', async () => {
    const { result } = await run('Object.getOwnPropertyNames(globalThis).sort()');
    expect(result).toEqual(
      [
        ...['AggregateError', 'Array', 'ArrayBuffer', 'BigInt', 'BigInt64Array', 'BigUint64Array'],
        ...['Boolean', 'DataView', 'Date', 'Error', 'EvalError', 'FinalizationRegistry'],
        ...['Float16Array', 'Float32Array', 'Float64Array', 'Function', 'Infinity'],
        ...['Int16Array', 'Int32Array', 'Int8Array', 'InternalError', 'Iterator', 'JSON', 'Map'],
        ...['Math', 'NaN', 'Number', 'Object', 'Promise', 'Proxy', 'RangeError', 'ReferenceError'],
        ...['Reflect', 'RegExp', 'Set', 'SharedArrayBuffer', 'String', 'Symbol', 'SyntaxError'],
        ...['TypeError', 'URIError', 'Uint16Array', 'Uint32Array', 'Uint8Array'],
        ...['Uint8ClampedArray', 'WeakMap', 'WeakRef', 'WeakSet', 'clearInterval', 'clearTimeout'],
        ...['console', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent'],
        ...['escape', 'eval', 'globalThis', 'isFinite', 'isNaN', 'parseFloat', 'parseInt'],
        ...['queueMicrotask', 'setInterval', 'setTimeout', 'undefined', 'unescape'],
      ].sort(),
    );
  });

  test('an infinite loop times out and the engine survives it for the next run', async () => {
    const quick = javascriptTool({ timeoutMs: 300 });
    const marked = await run('globalThis.marker = "earlier run"; 1', quick);

    const validation = quick.validate({ code: 'while (true) {}' });
    if (!validation.success) throw new Error(validation.error);
    const outcome = await executeTool(quick, validation.value, { toolUseId: 'spin' });
    const after = await run('[typeof marker, 6 * 7]', quick);

    expect(marked.result).toBe(1);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('TOOL_TIMEOUT');
      expect(outcome.error.message).toBe(
        'Tool "run_javascript" timed out: the code ran longer than 300 ms and was stopped',
      );
    }
    expect(after.result).toEqual(['undefined', 42]);
  });

  test('an infinite loop called directly (not through executeTool) times out too', async () => {
    const quick = javascriptTool({ timeoutMs: 200 });
    await expect(
      quick.execute?.(
        { code: 'for (;;) {}' },
        { signal: new AbortController().signal, toolUseId: 'x' },
      ),
    ).rejects.toMatchObject({
      code: 'TOOL_TIMEOUT',
    });
  });

  test('a timer left behind dies with its run', async () => {
    const first = await run(
      'globalThis.marker = "kept";\nsetTimeout(() => { throw new Error("late") }, 10);\nsetInterval(() => { for (;;) {} }, 0);\n"done"',
    );
    const second = await run(
      'await new Promise((resolve) => setTimeout(resolve, 50));\ntypeof marker',
    );
    expect(first).toEqual({ result: 'done', logs: [] });
    expect(second).toEqual({ result: 'undefined', logs: [] });
  });

  test('an error thrown by a timer during the run is logged', async () => {
    const result = await run(
      'setTimeout(() => { throw new TypeError("in a timer") }, 1);\nawait new Promise((resolve) => setTimeout(resolve, 20));\n"after"',
    );
    expect(result).toEqual({ result: 'after', logs: ['[error] Uncaught TypeError: in a timer'] });
  });

  test('timers fire in order, each followed by the microtasks it queued', async () => {
    const result = await run(
      [
        'setTimeout(() => console.log("t3"), 2);',
        'setTimeout(() => { console.log("t1"); Promise.resolve().then(() => console.log("m1")) }, 0);',
        'setTimeout(() => console.log("t2"), 0);',
        'await new Promise((resolve) => setTimeout(resolve, 10));',
      ].join('\n'),
    );
    expect(result.logs).toEqual(['t1', 'm1', 't2', 't3']);
  });

  test('an unhandled rejection does not fail the run', async () => {
    const result = await run('Promise.reject(new Error("ignored"));\n"done"');
    expect(result).toEqual({ result: 'done', logs: [] });
  });

  test('a promise nothing settles is reported, not waited on until the time limit', async () => {
    const result = await run('await new Promise(() => {});\n"never"');
    expect(result.error).toEqual({
      name: 'Error',
      message: 'The code awaits a promise that nothing settles (no timer is pending)',
    });
  });

  test('runs in flight at once keep their own console', async () => {
    const [a, b] = await Promise.all([
      run('console.log("a1"); await new Promise((r) => setTimeout(r, 30)); console.log("a2"); "a"'),
      run('console.log("b1"); await new Promise((r) => setTimeout(r, 10)); console.log("b2"); "b"'),
    ]);
    expect(a).toEqual({ result: 'a', logs: ['a1', 'a2'] });
    expect(b).toEqual({ result: 'b', logs: ['b1', 'b2'] });
  });
});

describe('javascriptTool output limit', () => {
  test('console output past the limit is cut, with a note', async () => {
    const small = javascriptTool({ maxOutputChars: 100 });
    const result = await run(
      'for (let i = 0; i < 1000; i++) console.log("line " + i);\n"end"',
      small,
    );

    expect(result.result).toBe('end');
    expect(result.logs.join('').length).toBeLessThanOrEqual(100);
    expect(result.logs[0]).toBe('line 0');
    expect(result.truncated).toMatch(
      /^Output exceeded 100 characters; omitted \d+ characters of console output\.$/,
    );
  });

  test('a result past the limit is cut to a JSON string, with a note', async () => {
    const small = javascriptTool({ maxOutputChars: 100 });
    const result = await run('Array.from({ length: 500 }, (_, i) => i)', small);

    expect(typeof result.result).toBe('string');
    expect(result.result).toMatch(/^\[0,1,2,3,/);
    expect(String(result.result).length).toBeLessThanOrEqual(101);
    expect(result.truncated).toMatch(/characters of the result/);
  });

  test('output within the limit has no note', async () => {
    expect((await run('console.log("short"); "fine"')).truncated).toBeUndefined();
  });
});
