import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { MIN_MEMORY_LIMIT_BYTES } from '../tools/javascript-sandbox-protocol.js';

const WASM_PAGE = 65_536;
/** The memory the release build starts with (its INITIAL_MEMORY). */
const ENGINE_BASE_BYTES = MIN_MEMORY_LIMIT_BYTES;

/**
 * The QuickJS WebAssembly engine of one sandbox worker, loaded on first use (the wasm file
 * is fetched and compiled then, not when the page loads). Its linear memory is a
 * `WebAssembly.Memory` whose `maximum` is the memory limit: the engine cannot grow past it
 * whatever the code allocates (QuickJS's own `setMemoryLimit` is not enough in this build —
 * it counts 8 bytes per allocation, since emscripten has no `malloc_usable_size`).
 *
 * Each run gets its own runtime and context on this module; after a failure of the engine
 * itself (a native stack overflow, a broken invariant) the module is dropped and the next
 * run loads a fresh one.
 */
export class SandboxEngine {
  /** The compiled engine, shared by every module this worker instantiates. */
  static #compiled: Promise<WebAssembly.Module> | undefined;
  readonly memoryLimitBytes: number;
  #module: Promise<QuickJSWASMModule> | undefined;

  constructor(memoryLimitBytes: number) {
    this.memoryLimitBytes = Math.max(memoryLimitBytes, ENGINE_BASE_BYTES);
  }

  /** The current module, loading one (the wasm at `engineUrl`) if there is none. */
  module(engineUrl: string): Promise<QuickJSWASMModule> {
    this.#module ??= this.#load(engineUrl);
    const loading = this.#module;
    // A failed load (wasm missing, out of memory) is not cached: the next run tries again.
    loading.catch(() => {
      if (this.#module === loading) this.#module = undefined;
    });
    return loading;
  }

  /** Drops `module` (when it is still the current one): the next run gets a fresh engine. */
  discard(module: QuickJSWASMModule): void {
    const current = this.#module;
    void current?.then((loaded) => {
      if (loaded === module && this.#module === current) this.#module = undefined;
    });
  }

  /**
   * True when the engine's memory has grown close to its limit: an allocation failed for
   * lack of room (a big request can fail with a few MB still free, hence the margin).
   */
  isExhausted(module: QuickJSWASMModule): boolean {
    return module.getWasmMemory().buffer.byteLength > this.memoryLimitBytes * 0.9;
  }

  async #load(engineUrl: string): Promise<QuickJSWASMModule> {
    SandboxEngine.#compiled ??= compile(engineUrl);
    const compiled = SandboxEngine.#compiled;
    compiled.catch(() => {
      if (SandboxEngine.#compiled === compiled) SandboxEngine.#compiled = undefined;
    });
    const wasmModule = await compiled;
    const maximum = Math.ceil(this.memoryLimitBytes / WASM_PAGE);
    const wasmMemory = new WebAssembly.Memory({ initial: ENGINE_BASE_BYTES / WASM_PAGE, maximum });
    return newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmModule, wasmMemory }));
  }
}

async function compile(url: string): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The sandbox engine ${url} answered ${response.status}`);
  // A server that does not send `application/wasm` makes compileStreaming throw a TypeError.
  if (response.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}
