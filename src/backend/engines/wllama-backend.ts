import type { ChatBackend, ChatRequest } from '../../types/chat-request.js';
import { constrainedChunks } from './constrained-chunks.js';
import { constrainTools, textOnlyMessages } from './constrained-tools.js';
import { type LoadProgressListener, ModelLoading } from './model-loading.js';
import { wllamaFailure } from './wllama-errors.js';
import { wllamaStream } from './wllama-stream.js';
import type { WllamaInstance, WllamaLibrary, WllamaLoadParams } from './wllama-library.js';

/** What {@link wllamaBackend} runs. */
export interface WllamaBackendOptions {
  /**
   * The GGUF model: a URL (ending in `.gguf`; the first shard of a split model), a Hugging Face
   * `{ repo, file }` (downloaded from `https://huggingface.co/{repo}/resolve/main/{file}`), or
   * `Blob`s (a file the user picked; all shards of a split model).
   */
  model: string | URL | { repo: string; file: string } | Blob[];
  /**
   * Loads `@wllama/wllama` (an optional peer of open-agent): `() => import('@wllama/wllama')`.
   * Called on first use, so the engine adds nothing to a page's first load, and apps without
   * the package never reference it.
   */
  library: () => Promise<WllamaLibrary>;
  /**
   * The URL of wllama's `wllama.wasm`, served by your app — with Vite,
   * `import wasm from '@wllama/wllama/esm/wasm/wllama.wasm?url'`. Resolved against the page.
   * Nothing is fetched from a CDN: wllama's fallback build (for browsers without JSPI or
   * Memory64) is turned off.
   */
  wasm: string | URL;
  /** The context window to allocate, in tokens. Default 4096 (wllama's own default: 1024). */
  contextSize?: number;
  /** Keep downloads in the origin's private file system (OPFS), so a reload loads without network. Default `true`. */
  cache?: boolean;
  /** More of wllama's load parameters (`n_threads`, `seed`, `n_batch`, …), passed as they are. */
  loadParams?: Record<string, unknown>;
  /** Stops a download in progress (a request's own `signal` only stops that request's wait). */
  signal?: AbortSignal;
}

/** A {@link ChatBackend} running a GGUF model in the page's own worker, with its load exposed. */
export interface WllamaBackend extends ChatBackend {
  /**
   * Downloads (or reads from the cache) and loads the model now, e.g. behind a "Load" button
   * with a progress bar; the first request does it otherwise, reporting `waiting` events.
   * Resolves once the model is ready; calls during a load join it.
   */
  load(options?: { onProgress?: LoadProgressListener }): Promise<void>;
  /** Whether the model is loaded. */
  readonly loaded: boolean;
  /** Stops the engine's worker and frees its memory; the next request loads again. */
  unload(): Promise<void>;
}

const DEFAULT_CONTEXT = 4096;

/**
 * A backend that runs a GGUF model on the CPU in the page with `@wllama/wllama` (llama.cpp
 * compiled to WebAssembly, in its own Web Worker — the page's main thread only relays
 * messages): no server, no GPU, no network once the model is cached.
 *
 * - The model loads on first use (or with `load()`); download and load progress arrive as
 *   `waiting` events (`phase: 'loading_model'`, `progress` 0..1).
 * - `contextWindow()` is the loaded context (`contextSize`); a prompt over it fails with
 *   `CONTEXT_OVERFLOW`.
 * - Tools: llama.cpp's own tool calling is not enforced by a grammar, so small models rarely
 *   call; instead the output is constrained by a JSON Schema to an answer or calls of the
 *   registered tools with valid arguments (the tools are described in the system prompt), and
 *   arrives as ordinary text and tool calls.
 * - `responseFormat` is enforced by the same grammar machinery.
 *
 * @throws AgentError (from the stream) `NETWORK_ERROR` when the download fails,
 *   `CONTEXT_OVERFLOW` for a prompt over the window, `STREAM_ERROR` for other engine failures.
 * @example
 * import wasm from '@wllama/wllama/esm/wasm/wllama.wasm?url';
 * const backend = wllamaBackend({
 *   model: { repo: 'HuggingFaceTB/SmolLM2-135M-Instruct-GGUF', file: 'smollm2-135m-instruct-q4_k_m.gguf' },
 *   library: () => import('@wllama/wllama'),
 *   wasm,
 * });
 * const client = new Client({ model: 'SmolLM2-135M', backend });
 */
export function wllamaBackend(options: WllamaBackendOptions): WllamaBackend {
  const loading = new ModelLoading((onProgress) => loadEngine(options, onProgress));
  return {
    chat: {
      completions: {
        create: (request, { signal } = {}) => wllamaChunks(loading, request, signal),
      },
    },
    contextWindow: () => loading.value?.getLoadedContextInfo().n_ctx,
    async load({ onProgress } = {}) {
      await loading.load(onProgress);
    },
    get loaded() {
      return loading.value !== undefined;
    },
    async unload() {
      const engine = loading.value;
      loading.reset();
      await engine?.exit();
    },
  };
}

async function loadEngine(
  options: WllamaBackendOptions,
  onProgress: LoadProgressListener,
): Promise<WllamaInstance> {
  const { Wllama } = await options.library();
  const engine = new Wllama(
    { default: new URL(options.wasm, globalThis.location?.href).href },
    { suppressNativeLog: true, allowOffline: true, logger: QUIET },
  );
  engine.setCompat(null);
  const params: WllamaLoadParams = {
    ...options.loadParams,
    n_ctx: options.contextSize ?? DEFAULT_CONTEXT,
    useCache: options.cache ?? true,
    ...(options.signal ? { signal: options.signal } : {}),
    progressCallback: ({ loaded, total }) =>
      onProgress(total > 0 ? Math.min(1, loaded / total) : 0),
  };
  const { model } = options;
  try {
    if (Array.isArray(model)) await engine.loadModel(model, params);
    else await engine.loadModelFromUrl(modelUrl(model), params);
  } catch (error) {
    await engine.exit().catch(() => undefined);
    throw wllamaFailure(error, 'load');
  }
  onProgress(1);
  return engine;
}

/**
 * The URL of the model's file. A Hugging Face file is its `resolve/main` URL, built here rather
 * than by wllama's `loadModelFromHF`, which lists the repo through the Hub's API on every load
 * (3.13) — so a cached model would still need the network, and fail offline.
 */
function modelUrl(model: string | URL | { repo: string; file: string }): string {
  if (typeof model === 'string' || model instanceof URL)
    return new URL(model, globalThis.location?.href).href;
  const path = model.file.split('/').map(encodeURIComponent).join('/');
  return `${HUGGING_FACE}/${model.repo}/resolve/main/${path}`;
}

const HUGGING_FACE = 'https://huggingface.co';

async function* wllamaChunks(
  loading: ModelLoading<WllamaInstance>,
  request: ChatRequest,
  signal: AbortSignal | undefined,
): AsyncGenerator<unknown> {
  const engine = yield* loading.waitFor({ model: request.model, signal });
  const constrained = constrainTools(request);
  const format = request.response_format;
  const chunks = wllamaStream(
    engine,
    {
      messages: (constrained?.messages ?? textOnlyMessages(request.messages)) as never[], // wllama's message type: the same OpenAI shape
      stream: true,
      ...(request.stream_options === undefined ? {} : { stream_options: request.stream_options }),
      ...(request.max_tokens === undefined ? {} : { max_tokens: request.max_tokens }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.stop === undefined ? {} : { stop: request.stop }),
      ...(request.seed === undefined ? {} : { seed: request.seed }),
      ...(constrained
        ? { response_format: jsonSchemaFormat(constrained.schema) }
        : format === undefined
          ? {}
          : { response_format: format }),
    },
    signal,
  );
  try {
    yield* constrained ? constrainedChunks(chunks) : chunks;
  } catch (error) {
    throw wllamaFailure(error, 'generate');
  }
}

function jsonSchemaFormat(schema: Record<string, unknown>): unknown {
  return {
    type: 'json_schema',
    json_schema: { name: 'answer_or_tool_calls', schema, strict: true },
  };
}

/**
 * wllama logs every step of a load to the console, and every refusal it then throws: only its
 * warnings are kept (its errors reach the caller as ours).
 */
const QUIET = {
  debug: () => undefined,
  log: () => undefined,
  warn: (...args: unknown[]) => console.warn('wllama:', ...args),
  error: () => undefined,
};
