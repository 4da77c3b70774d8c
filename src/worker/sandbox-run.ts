import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
  VmFunctionImplementation,
} from 'quickjs-emscripten-core';
import { AgentError, errorMessage, isAgentError } from '../errors/agent-error.js';
import type {
  JavaScriptError,
  SandboxAnswer,
  SandboxRequest,
} from '../tools/javascript-sandbox-protocol.js';
import { withImplicitReturn } from './implicit-return.js';
import type { SandboxEngine } from './sandbox-engine.js';
import { sandboxFetch, type SandboxFetchRequest } from './sandbox-fetch.js';
import { SandboxOutput } from './sandbox-output.js';
import { sandboxPrelude, type PreludeExports } from './sandbox-prelude.js';
import { buildSandboxAnswer, type RunOutcome } from './sandbox-result.js';

/** Evaluated in every run's fresh context; see sandbox-prelude.ts for why it is source text. */
const PRELUDE_SOURCE = `(${sandboxPrelude.toString()})`;
/** QuickJS names code compiled by the `Function` constructors `<input>` in stack traces. */
const CODE_FRAME = /<input>:(\d+):(\d+)/;
/**
 * QuickJS's own recursion limit, below what the worker's native stack holds, so that deep
 * recursion in the model's code is an error inside the engine (about 740 plain calls deep,
 * Chromium 156) rather than a native stack overflow that takes the engine down. Some
 * built-ins do not check it (`JSON.stringify` of a value nested 100,000 deep): the engine is
 * then replaced, see `runInSandbox`.
 */
const MAX_STACK_BYTES = 128 * 1024;
const MAX_TIMERS = 1_000;
/** Longest error description read out of the engine. */
const MAX_DESCRIPTION_CHARS = 20_000;

type Exports = { [Name in Exclude<keyof PreludeExports, 'headerLines'>]: QuickJSHandle } & {
  headerLines: number;
};

/**
 * Runs one request in a fresh QuickJS runtime and context on `engine`'s module, within its
 * time, memory and output limits, and disposes both. Nothing of the browser exists in that
 * context: the model's code sees the language's built-ins, `console` and timers, all
 * provided by the prelude through four host functions that take only strings and numbers.
 *
 * Resolves to the answer (errors in the code are part of it); rejects with `TOOL_TIMEOUT`
 * past `timeoutMs`, or `EXECUTION_CANCELLED` when `signal` aborts.
 */
export async function runInSandbox(
  engine: SandboxEngine,
  request: SandboxRequest,
  signal: AbortSignal,
): Promise<SandboxAnswer> {
  const module = await engine.module(request.engineUrl);
  const run = new SandboxRun({ module, engine, request, signal });
  let healthy = true;
  try {
    const outcome = await run.execute();
    return buildSandboxAnswer(outcome, run.output, request.maxOutputChars);
  } catch (error) {
    if (isAgentError(error)) throw error;
    // The engine itself failed (a native stack overflow, an allocation the glue code could
    // not make): its state is unknown, so it is neither disposed nor used again.
    healthy = false;
    engine.discard(module);
    const exhausted = engine.isExhausted(module);
    return buildSandboxAnswer(
      {
        ok: false,
        error: exhausted
          ? outOfMemory(engine)
          : {
              name: error instanceof Error ? error.name : 'Error',
              message: `${errorMessage(error)} (the sandbox engine failed and was restarted)`,
            },
      },
      run.output,
      request.maxOutputChars,
    );
  } finally {
    if (healthy && !run.dispose()) engine.discard(module);
  }
}

function outOfMemory(engine: SandboxEngine): JavaScriptError {
  const megabytes = Math.round(engine.memoryLimitBytes / 2 ** 20);
  return {
    name: 'InternalError',
    message: `out of memory: the sandbox may use ${megabytes} MB in all`,
  };
}

class SandboxRun {
  readonly output: SandboxOutput;
  readonly #engine: SandboxEngine;
  readonly #module: QuickJSWASMModule;
  readonly #request: SandboxRequest;
  readonly #signal: AbortSignal;
  readonly #runtime: QuickJSRuntime;
  readonly #context: QuickJSContext;
  readonly #handles: QuickJSHandle[] = [];
  /** Timer id → when it is due (`performance.now()` time). */
  readonly #timers = new Map<number, number>();
  /** Host work the code awaits (granted fetches), and the engine promises they settle. */
  readonly #operations = new Set<Promise<void>>();
  readonly #deferreds = new Set<QuickJSDeferredPromise>();
  /** Aborted when the run ends: stops host work still in flight. */
  readonly #ended = new AbortController();
  #deadline = Infinity;
  #exports: Exports | undefined;

  constructor(options: {
    module: QuickJSWASMModule;
    engine: SandboxEngine;
    request: SandboxRequest;
    signal: AbortSignal;
  }) {
    this.#module = options.module;
    this.#engine = options.engine;
    this.#request = options.request;
    this.#signal = options.signal;
    this.output = new SandboxOutput(options.request.maxOutputChars);
    this.#runtime = this.#module.newRuntime();
    // The Memory's maximum is the real limit; this one still refuses a single huge allocation early.
    this.#runtime.setMemoryLimit(this.#engine.memoryLimitBytes);
    this.#runtime.setMaxStackSize(MAX_STACK_BYTES);
    this.#runtime.setInterruptHandler(
      () => this.#signal.aborted || performance.now() > this.#deadline,
    );
    this.#context = this.#runtime.newContext();
  }

  async execute(): Promise<RunOutcome> {
    this.#deadline = performance.now() + this.#request.timeoutMs;
    const exports = this.#installPrelude();
    const compiled = this.#compile(exports);
    if (!('alive' in compiled)) return { ok: false, error: compiled };
    const context = this.#context;
    const call = context.callFunction(compiled, context.undefined);
    if (call.error) return this.#failure(this.#own(call.error));
    const promise = this.#own(call.value);
    for (;;) {
      this.#check();
      const jobs = this.#runtime.executePendingJobs();
      if (jobs.error) return this.#failure(this.#own(jobs.error));
      const state = context.getPromiseState(promise);
      if (state.type === 'fulfilled') return this.#success(exports, this.#own(state.value));
      if (state.type === 'rejected') return this.#failure(this.#own(state.error));
      if (this.#timers.size === 0 && this.#operations.size === 0) {
        const message = 'The code awaits a promise that nothing settles (no timer is pending)';
        return { ok: false, error: { name: 'Error', message } };
      }
      await this.#waitForWork();
      const failed = this.#fireDueTimers(exports);
      if (failed) return this.#failure(failed);
    }
  }

  /** Disposes the context and runtime; false when that failed (the module is then suspect). */
  dispose(): boolean {
    this.#ended.abort();
    try {
      // A promise still waiting on the host holds engine functions: free them first.
      for (const deferred of this.#deferreds) deferred.dispose();
      this.#deferreds.clear();
      for (const handle of this.#handles.reverse()) if (handle.alive) handle.dispose();
      this.#context.dispose();
      this.#runtime.dispose();
      return true;
    } catch {
      return false;
    }
  }

  #own<T extends QuickJSHandle>(handle: T): T {
    this.#handles.push(handle);
    return handle;
  }

  /** Throws when the run must stop: its deadline passed or the page cancelled it. */
  #check(): void {
    if (this.#signal.aborted) {
      const reason: unknown = this.#signal.reason;
      throw isAgentError(reason)
        ? AgentError.fromJSON(reason)
        : new AgentError('EXECUTION_CANCELLED', 'The sandboxed run was cancelled');
    }
    if (performance.now() > this.#deadline) {
      throw new AgentError(
        'TOOL_TIMEOUT',
        `The code ran longer than its limit of ${this.#request.timeoutMs} ms and was stopped`,
      );
    }
  }

  #installPrelude(): Exports {
    const context = this.#context;
    const host = this.#own(context.newObject());
    const define = (name: string, implementation: VmFunctionImplementation<QuickJSHandle>) => {
      const fn = context.newFunction(name, implementation);
      context.setProp(host, name, fn);
      fn.dispose();
    };
    define('write', (_level, text, length) => {
      if (!text || context.typeof(text) !== 'string') return;
      const size = this.#stringLength(text);
      const full = length && context.typeof(length) === 'number' ? context.getNumber(length) : size;
      this.output.write(size, Number.isFinite(full) ? full : size, () => context.getString(text));
    });
    define('room', () => context.newNumber(this.output.room));
    define('schedule', (id, delay) => {
      const key = id ? context.getNumber(id) : NaN;
      if (!Number.isSafeInteger(key)) return;
      if (!this.#timers.has(key) && this.#timers.size >= MAX_TIMERS) {
        throw new RangeError(`More than ${MAX_TIMERS} timers pending at once`);
      }
      const milliseconds = delay ? context.getNumber(delay) : 0;
      this.#timers.set(key, performance.now() + (milliseconds > 0 ? milliseconds : 0));
    });
    define('cancel', (id) => {
      if (id) this.#timers.delete(context.getNumber(id));
    });
    if (this.#request.fetchOrigins.length > 0) {
      define('fetch', (url, method, headers, body) => this.#fetch({ url, method, headers, body }));
    }
    const prelude = this.#own(
      context.unwrapResult(context.evalCode(PRELUDE_SOURCE, 'sandbox-runtime.js')),
    );
    const made = this.#own(
      context.unwrapResult(context.callFunction(prelude, context.undefined, host)),
    );
    const member = (name: keyof PreludeExports) => this.#own(context.getProp(made, name));
    const exports: Exports = {
      headerLines: context.getNumber(member('headerLines')),
      compile: member('compile'),
      fire: member('fire'),
      serialize: member('serialize'),
      take: member('take'),
      describe: member('describe'),
    };
    this.#exports = exports;
    return exports;
  }

  /** The model's code as a compiled async function, or its syntax error. */
  #compile(exports: Exports): QuickJSHandle | JavaScriptError {
    const context = this.#context;
    const compile = (body: string) => {
      const source = context.newString(body);
      const result = context.callFunction(exports.compile, context.undefined, source);
      source.dispose();
      return result;
    };
    const compiles = (body: string) => {
      const result = compile(body);
      (result.error ?? result.value).dispose();
      return result.error === undefined;
    };
    const { code } = this.#request;
    const result = compile(withImplicitReturn(code, compiles) ?? code);
    if (result.error) {
      this.#check();
      return this.#describe(this.#own(result.error));
    }
    return this.#own(result.value);
  }

  #success(exports: Exports, value: QuickJSHandle): RunOutcome {
    const context = this.#context;
    const limit = context.newNumber(this.#request.maxOutputChars + 1);
    const serialized = context.callFunction(exports.serialize, context.undefined, value, limit);
    limit.dispose();
    if (serialized.error) {
      const error = this.#failure(this.#own(serialized.error));
      if (error.ok) return error;
      const { name, message } = error.error;
      return {
        ok: false,
        error: { name, message: `The result could not be converted to JSON: ${message}` },
      };
    }
    const length = this.#own(serialized.value);
    const size = context.typeof(length) === 'number' ? context.getNumber(length) : NaN;
    // The code is done: reading the text out runs none of it, so no deadline applies.
    this.#deadline = Infinity;
    if (!Number.isSafeInteger(size) || size < -1) {
      return {
        ok: false,
        error: { name: 'Error', message: 'The result could not be converted to JSON' },
      };
    }
    return { ok: true, length: size, take: (count) => this.#take(count) };
  }

  #take(count: number): string {
    const context = this.#context;
    const exports = this.#exports;
    if (!exports) return '""';
    const amount = context.newNumber(count);
    const result = context.callFunction(exports.take, context.undefined, amount);
    amount.dispose();
    const handle = result.error ?? result.value;
    const text =
      !result.error && context.typeof(handle) === 'string' && this.#stringLength(handle) <= count
        ? context.getString(handle)
        : undefined;
    handle.dispose();
    return text ?? JSON.stringify('[the result could not be read]');
  }

  #failure(thrown: QuickJSHandle): RunOutcome {
    this.#check();
    return { ok: false, error: this.#describe(thrown) };
  }

  #describe(thrown: QuickJSHandle): JavaScriptError {
    const context = this.#context;
    const exports = this.#exports;
    let description: unknown;
    if (exports) {
      const result = context.callFunction(exports.describe, context.undefined, thrown);
      const handle = result.error ?? result.value;
      if (
        !result.error &&
        context.typeof(handle) === 'string' &&
        this.#stringLength(handle) <= MAX_DESCRIPTION_CHARS
      ) {
        try {
          description = JSON.parse(context.getString(handle));
        } catch {
          description = undefined;
        }
      }
      handle.dispose();
    }
    const { name, message, stack } = (description ?? {}) as Record<string, unknown>; // each field checked below
    if (typeof name !== 'string' || typeof message !== 'string') {
      return this.#engine.isExhausted(this.#module)
        ? outOfMemory(this.#engine)
        : { name: 'Error', message: 'The code threw a value that could not be described' };
    }
    // QuickJS throws `null` when it cannot even allocate its out-of-memory error.
    if (
      (name === 'InternalError' && message === 'out of memory') ||
      (name === 'Uncaught' && message === 'null' && this.#engine.isExhausted(this.#module))
    ) {
      return outOfMemory(this.#engine);
    }
    return { name, message, ...this.#locate(typeof stack === 'string' ? stack : '') };
  }

  /** Line and column in the model's code of the innermost frame that is in it. */
  #locate(stack: string): { line?: number; column?: number } {
    const match = CODE_FRAME.exec(stack);
    if (!match || !this.#exports) return {};
    const line = Number(match[1]) - this.#exports.headerLines;
    const column = Number(match[2]);
    const lineCount = this.#request.code.split('\n').length;
    if (!(line >= 1)) return {};
    // An unclosed block fails on the wrapper's closing brace, after the code: its last line.
    if (line > lineCount) return { line: lineCount };
    return column >= 1 ? { line, column } : { line };
  }

  #stringLength(handle: QuickJSHandle): number {
    const length = this.#context.getProp(handle, 'length');
    const value = this.#context.getNumber(length);
    length.dispose();
    return value;
  }

  /** Waits for the next timer, the deadline, host work settling, or the page's cancel. */
  async #waitForWork(): Promise<void> {
    const next = Math.min(...this.#timers.values());
    const delay = Math.min(next, this.#deadline) - performance.now();
    // A timer already due fires without a trip through the event loop (which clamps
    // nested zero-delay timeouts to 4 ms); the deadline still bounds a chain of them.
    if (delay <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, delay);
      this.#signal.addEventListener('abort', done, { once: true });
      for (const operation of this.#operations) void operation.then(done);
    });
  }

  /**
   * The granted `fetch` (`fetchOrigins`): an engine promise the worker settles with the
   * response as JSON text (the prelude builds the Response-like object), or a TypeError.
   */
  #fetch(handles: Record<keyof SandboxFetchRequest, QuickJSHandle | undefined>): QuickJSHandle {
    const context = this.#context;
    const text = (handle: QuickJSHandle | undefined) =>
      handle && context.typeof(handle) === 'string' ? context.getString(handle) : undefined;
    let headers: Record<string, string> = {};
    try {
      const parsed: unknown = JSON.parse(text(handles.headers) ?? '{}');
      if (typeof parsed === 'object' && parsed !== null) {
        headers = Object.fromEntries(
          Object.entries(parsed).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        );
      }
    } catch {
      headers = {};
    }
    const request = {
      url: text(handles.url) ?? '',
      method: text(handles.method) ?? 'GET',
      headers,
      body: text(handles.body),
    };
    const deferred = context.newPromise();
    this.#deferreds.add(deferred);
    const settle = (outcome: { ok: true; json: string } | { ok: false; message: string }) => {
      if (this.#ended.signal.aborted) return;
      this.#deferreds.delete(deferred);
      const value = outcome.ok
        ? context.newString(outcome.json)
        : context.newError({ name: 'TypeError', message: outcome.message });
      if (outcome.ok) deferred.resolve(value);
      else deferred.reject(value);
      value.dispose();
    };
    const operation = sandboxFetch(request, this.#request.fetchOrigins, this.#ended.signal).then(
      (response) => settle({ ok: true, json: JSON.stringify(response) }),
      (error: unknown) => settle({ ok: false, message: errorMessage(error) }),
    );
    this.#operations.add(operation);
    void operation.finally(() => this.#operations.delete(operation));
    return deferred.handle;
  }

  /** Fires every timer that is due, earliest first; the engine error that stopped one, if any. */
  #fireDueTimers(exports: Exports): QuickJSHandle | undefined {
    const now = performance.now();
    const due = [...this.#timers]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const context = this.#context;
    for (const [id] of due) {
      if (!this.#timers.has(id)) continue; // cleared by an earlier callback
      this.#timers.delete(id);
      const handle = context.newNumber(id);
      const result = context.callFunction(exports.fire, context.undefined, handle);
      handle.dispose();
      if (result.error) return this.#own(result.error);
      result.value.dispose();
      // As in a browser, the microtasks a timer callback queued run before the next timer.
      const jobs = this.#runtime.executePendingJobs();
      if (jobs.error) return this.#own(jobs.error);
      this.#check();
    }
    return undefined;
  }
}
