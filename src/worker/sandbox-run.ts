import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { AgentError, isAgentError } from '../errors/agent-error.js';
import type { JavaScriptError, SandboxRequest } from '../tools/javascript-sandbox-protocol.js';
import { withImplicitReturn } from './implicit-return.js';
import type { SandboxEngine } from './sandbox-engine.js';
import { engineText } from './engine-text.js';
import { installPrelude, type PreludeHandles } from './install-prelude.js';
import { SandboxOutput } from './sandbox-output.js';
import { sandboxHost } from './sandbox-host.js';
import { sandboxError } from './sandbox-error.js';
import type { RunOutcome } from './sandbox-result.js';
import { SandboxTimers } from './sandbox-timers.js';

/**
 * QuickJS's own recursion limit, below what the worker's native stack holds, so that deep
 * recursion in the model's code is an error inside the engine (about 740 plain calls deep,
 * Chromium 156) rather than a native stack overflow that takes the engine down. Some
 * built-ins do not check it (`JSON.stringify` of a value nested 100,000 deep): the engine is
 * then replaced, see `runInSandbox`.
 */
const MAX_STACK_BYTES = 128 * 1024;
/** Longest error description read out of the engine. */
const MAX_DESCRIPTION_CHARS = 20_000;

/**
 * One request's run in a fresh QuickJS runtime and context on a module (see
 * `runInSandbox`): installs the prelude, compiles and runs the model's code with its timers
 * and granted fetches within the time limit, reads out its result or error, and disposes
 * everything.
 */
export class SandboxRun {
  readonly output: SandboxOutput;
  readonly #engine: SandboxEngine;
  readonly #module: QuickJSWASMModule;
  readonly #request: SandboxRequest;
  readonly #signal: AbortSignal;
  readonly #runtime: QuickJSRuntime;
  readonly #context: QuickJSContext;
  readonly #handles: QuickJSHandle[] = [];
  readonly #timers = new SandboxTimers();
  /** Host work the code awaits (granted fetches), and the engine promises they settle. */
  readonly #operations = new Set<Promise<void>>();
  readonly #deferreds = new Set<QuickJSDeferredPromise>();
  /** Aborted when the run ends: stops host work still in flight. */
  readonly #ended = new AbortController();
  #deadline = Infinity;
  #exports: PreludeHandles | undefined;

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

  #installPrelude(): PreludeHandles {
    const context = this.#context;
    const host = sandboxHost({
      context,
      output: this.output,
      timers: this.#timers,
      fetch:
        this.#request.fetchOrigins.length > 0
          ? {
              context,
              origins: this.#request.fetchOrigins,
              ended: this.#ended.signal,
              deferreds: this.#deferreds,
              operations: this.#operations,
            }
          : undefined,
    });
    const exports = installPrelude(context, host, (handle) => this.#own(handle));
    this.#exports = exports;
    return exports;
  }

  /** The model's code as a compiled async function, or its syntax error. */
  #compile(exports: PreludeHandles): QuickJSHandle | JavaScriptError {
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

  #success(exports: PreludeHandles, value: QuickJSHandle): RunOutcome {
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
    const text = engineText(context, { fn: exports.take, args: [amount], maxLength: count });
    amount.dispose();
    return text ?? JSON.stringify('[the result could not be read]');
  }

  #failure(thrown: QuickJSHandle): RunOutcome {
    this.#check();
    return { ok: false, error: this.#describe(thrown) };
  }

  #describe(thrown: QuickJSHandle): JavaScriptError {
    const context = this.#context;
    const exports = this.#exports;
    const text = exports
      ? engineText(context, {
          fn: exports.describe,
          args: [thrown],
          maxLength: MAX_DESCRIPTION_CHARS,
        })
      : undefined;
    let description: unknown;
    try {
      description = text === undefined ? undefined : JSON.parse(text);
    } catch {
      description = undefined;
    }
    return sandboxError(description, {
      code: this.#request.code,
      headerLines: exports?.headerLines ?? 0,
      memoryLimitBytes: this.#engine.memoryLimitBytes,
      exhausted: () => this.#engine.isExhausted(this.#module),
    });
  }

  /** Waits for the next timer, the deadline, host work settling, or the page's cancel. */
  async #waitForWork(): Promise<void> {
    const next = this.#timers.next();
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

  /** Fires every timer that is due, earliest first; the engine error that stopped one, if any. */
  #fireDueTimers(exports: PreludeHandles): QuickJSHandle | undefined {
    const context = this.#context;
    for (const id of this.#timers.due(performance.now())) {
      if (!this.#timers.cancel(id)) continue; // cleared by an earlier callback
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
