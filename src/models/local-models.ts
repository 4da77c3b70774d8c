import { createSSEChunkReader } from '../backend/sse-chunk-reader.js';

/**
 * Which kind of server answers at a base URL. `openai-compatible` is any other server with
 * `GET /v1/models` (a proxy, text-generation-webui, a cloud API): listing only.
 */
export type ServerKind = 'ollama' | 'lmstudio' | 'llama.cpp' | 'vllm' | 'openai-compatible';

/** What {@link localModels} (and `checkServer`) found out about the server. */
export interface ServerIdentity {
  kind: ServerKind;
  /** For people: `Ollama`, `LM Studio`, `llama.cpp`, `vLLM`, `OpenAI-compatible server`. */
  name: string;
  /** The version the server reports (Ollama `/api/version`, vLLM `/version`, llama.cpp `build_info`). */
  version?: string;
  /**
   * The management API used: LM Studio `v1` (0.4+, `/api/v1/models`) or `v0` (0.3.6+,
   * listing only); llama.cpp `router` (started without a model: `/models`, `/models/load`…)
   * or `single` (one model, listing only).
   */
  variant?: 'v0' | 'v1' | 'router' | 'single';
}

/** What a model can do, as the server tells; a capability the server does not report is absent. */
export interface ModelCapabilities {
  /** Trained or templated for tool calling (Ollama `tools`, LM Studio `trained_for_tool_use`). */
  tools?: boolean;
  /** Takes images (Ollama `vision`, LM Studio `capabilities.vision`, llama.cpp `image` input). */
  vision?: boolean;
  /** Thinks before answering (Ollama `thinking`). */
  thinking?: boolean;
}

/** One model the server has. */
export interface LocalModel {
  /** The name to put in `AgentOptions.model`. */
  name: string;
  /** Bytes on disk, where the server says. */
  size?: number;
  /** In memory now; absent when the server cannot tell (a bare OpenAI-compatible server). */
  loaded?: boolean;
  /** The window it is loaded with now (tokens), where the server says. */
  contextLength?: number;
  /** The most it can be loaded with (its trained window), where the server says. */
  maxContextLength?: number;
  capabilities: ModelCapabilities;
}

/** Where a download is, told to `pull`'s `onProgress` at least every 500 ms while it runs. */
export interface PullProgress {
  /**
   * The phase: `downloading` while bytes arrive, else the server's words (`pulling manifest`,
   * `verifying sha256 digest`, `success`, LM Studio's `paused`).
   */
  status: string;
  /** Bytes downloaded so far (all layers or files together). */
  completed: number;
  /** Bytes in all, once the server knows. */
  total?: number;
  /**
   * 0–100, whole: `completed / total`, held at 99 until the server says the model is ready
   * (downloaded is not verified): 100 exactly once, with `done`.
   */
  percent: number;
  /** Download speed over the last seconds, bytes per second. */
  bytesPerSecond?: number;
  /** True once, on the last call: the model is on the server. */
  done: boolean;
}

/** Options for `pull`. */
export interface PullOptions {
  /**
   * Stops the download (the promise rejects with `EXECUTION_CANCELLED`). Ollama and llama.cpp
   * stop downloading and keep the part done, so pulling again resumes; LM Studio's API has no
   * cancel, so it keeps downloading in the app.
   */
  signal?: AbortSignal;
  onProgress?: (progress: PullProgress) => void;
  /**
   * A download whose connection drops before the server said it was done is asked again this
   * many times; each time it resumes where the server got to. Default 2.
   */
  retries?: number;
}

/** Options for `load`. */
export interface LoadOptions {
  /** The context window to load with, in tokens (Ollama `num_ctx`, LM Studio `context_length`). */
  contextLength?: number;
  signal?: AbortSignal;
}

/** One request's options. */
export interface ModelRequestOptions {
  signal?: AbortSignal;
}

/**
 * The models of one server and what can be done with them there. A method the server has no
 * API for is absent (`undefined`), never a method that fails when called:
 *
 * | server | list | pull | load | unload | remove |
 * | --- | --- | --- | --- | --- | --- |
 * | Ollama | ✓ | ✓ | ✓ | ✓ | ✓ |
 * | LM Studio 0.4+ (v1) | ✓ | ✓ | ✓ | ✓ | – |
 * | LM Studio 0.3 (v0) | ✓ | – | – | – | – |
 * | llama.cpp router | ✓ | ✓ | ✓ | ✓ | ✓ |
 * | llama.cpp, one model | ✓ | – | – | – | – |
 * | vLLM, OpenAI-compatible | ✓ | – | – | – | – |
 */
export interface LocalModels {
  server: ServerIdentity;
  /** The OpenAI-compatible root to use as `AgentOptions.baseURL` (`…/v1`). */
  baseURL: string;
  /** The server's models: loaded ones first, then by name. */
  list(options?: ModelRequestOptions): Promise<LocalModel[]>;
  /**
   * Downloads a model (Ollama `qwen3:4b`, LM Studio `qwen/qwen3-4b-2507`, llama.cpp
   * `ggml-org/gemma-3-1b-it-GGUF:Q4_K_M`). Resolves when the server says it is ready.
   * @throws AgentError `EXECUTION_CANCELLED` on abort; `HTTP_ERROR` / `STREAM_ERROR` with the
   *   server's message (an unknown name); `NETWORK_ERROR` when the connection dropped more
   *   than `retries` times.
   */
  pull?: (name: string, options?: PullOptions) => Promise<void>;
  /** Loads a model into memory (with a context window where the server takes one). */
  load?: (name: string, options?: LoadOptions) => Promise<void>;
  /** Frees the memory a model takes. */
  unload?: (name: string, options?: ModelRequestOptions) => Promise<void>;
  /** Deletes a model from the server's disk. */
  remove?: (name: string, options?: ModelRequestOptions) => Promise<void>;
}

/** Options for {@link localModels}. */
export interface LocalModelsOptions {
  /** The server: `http://localhost:11434`, or its OpenAI-compatible root `http://localhost:11434/v1`. */
  baseURL: string;
  /** `'ollama'` skips detection (the server is Ollama); default: detected. */
  api?: 'openai' | 'ollama';
  /** The fetch to use. Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Cancels detection. */
  signal?: AbortSignal;
}

/**
 * Finds out which server answers at `baseURL` (Ollama, LM Studio 0.3/0.4+, llama.cpp with one
 * model or as a router, vLLM, another OpenAI-compatible server) and returns what can be done
 * with its models there: `list()` always; `pull`, `load`, `unload`, `remove` where that server
 * has an API for it (absent otherwise). Loads its code on first call: nothing of it is in a
 * first load of `open-agent`.
 *
 * @throws AgentError `NETWORK_ERROR` when nothing answers (in a page, maybe CORS: the message
 *   says how to allow the page), `INVALID_RESPONSE` when what answers is no model server,
 *   `EXECUTION_CANCELLED` on abort.
 * @example
 * const models = await localModels({ baseURL: 'http://localhost:11434' });
 * console.log(models.server.name, await models.list());
 * if (models.pull) {
 *   await models.pull('qwen3:4b', { onProgress: (p) => console.log(`${p.percent} %`) });
 * }
 */
export async function localModels(options: LocalModelsOptions): Promise<LocalModels> {
  const { openLocalModels } = await import('./open-local-models.js');
  return openLocalModels(options, { createSSEChunkReader });
}
