/**
 * The part of `@wllama/wllama` 3.13 that `wllamaBackend` uses, written out so that open-agent
 * neither imports the library (an optional peer, loaded on first use through the `library`
 * option) nor needs its types to compile. `typeof import('@wllama/wllama')` fits it.
 */
export interface WllamaLibrary {
  Wllama: new (paths: { default: string }, config?: WllamaConfig) => WllamaInstance;
}

/** The constructor options we pass (wllama's `WllamaConfig`). */
export interface WllamaConfig {
  suppressNativeLog?: boolean;
  allowOffline?: boolean;
  logger?: {
    debug: (...args: unknown[]) => void;
    log: (...args: unknown[]) => void;
    warn: (...args: unknown[]) => void;
    error: (...args: unknown[]) => void;
  };
}

/** wllama's download options with its load parameters (`n_ctx`, `n_threads`, `seed`, …). */
export interface WllamaLoadParams {
  n_ctx?: number;
  n_threads?: number;
  seed?: number;
  useCache?: boolean;
  signal?: AbortSignal;
  progressCallback?: (progress: { loaded: number; total: number }) => unknown;
  [param: string]: unknown;
}

/** A `Wllama` instance: one worker running llama.cpp compiled to WebAssembly. */
export interface WllamaInstance {
  /** `null` forbids wllama's fallback to a wasm build from a CDN (browsers without JSPI or Memory64). */
  setCompat(compat: null): void;
  loadModel(blobs: Blob[], params?: WllamaLoadParams): Promise<void>;
  loadModelFromUrl(url: string, params?: WllamaLoadParams): Promise<void>;
  /** With `stream: true` and `onData`: calls `onData` per chunk, resolves when the answer is complete. */
  createChatCompletion(
    options: WllamaChatParams & { onData: (chunk: never) => void; abortSignal?: AbortSignal },
  ): Promise<unknown>;
  getLoadedContextInfo(): { n_ctx: number };
  exit(): Promise<void>;
}

/** The streaming chat request wllama takes (llama-server's `/v1/chat/completions` body). */
export interface WllamaChatParams {
  messages: never[];
  stream: true;
  [param: string]: unknown;
}
