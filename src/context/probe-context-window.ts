/** The local servers whose context window we can ask for, and name the fix of. */
export type ContextServer = 'ollama' | 'llama.cpp' | 'vllm' | 'lmstudio';

/** What a server said about a model's window. */
export interface ContextProbe {
  server?: ContextServer;
  /** The window the model is served with now (tokens). */
  window?: number;
  /** The model's trained maximum, where the server can be told to use more (Ollama `num_ctx`). */
  trainedMax?: number;
  /**
   * Whether the model takes images, where the answer already asked says: llama.cpp `/props`
   * `modalities.vision`, Ollama `/api/show` `capabilities`, LM Studio's `type` (`vlm`).
   * Absent: unknown (vLLM does not say).
   */
  acceptsImages?: boolean;
}

/** What {@link probeContextWindow} needs. */
export interface ProbeOptions {
  baseURL: string;
  model: string;
  fetch: typeof globalThis.fetch;
  signal?: AbortSignal | undefined;
}

const probes = new Map<string, Promise<ContextProbe>>();

/**
 * Asks the server for the model's context window, the way each one can answer: llama.cpp
 * `GET /props`, vLLM `GET /v1/models` (`max_model_len`), LM Studio `GET /api/v0/models`,
 * Ollama `GET /api/ps` (the loaded window) and `POST /api/show` (the trained maximum). The
 * same answers say whether the model takes images (llama.cpp and Ollama; vLLM and LM Studio
 * do not tell: their refusal is explained instead, see server-setup-hint.ts).
 * Once per server and model (cached, failures too); never throws — `{}` when nobody answers.
 */
export function probeContextWindow(options: ProbeOptions): Promise<ContextProbe> {
  const root = serverRoot(options.baseURL);
  const key = `${root} ${options.model}`;
  let probe = probes.get(key);
  if (!probe) {
    probes.set(key, (probe = askServer(root, options)));
    // A run stopped while asking learned nothing: the next one asks again.
    void probe.then(() => {
      if (options.signal?.aborted === true) probes.delete(key);
    });
  }
  return probe;
}

/** The server's root: `baseURL` without a trailing `/v1` or `/api`. */
export function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/(v1|api)$/, '');
}

async function askServer(
  root: string,
  { model, fetch, signal }: ProbeOptions,
): Promise<ContextProbe> {
  const get = async (
    path: string,
    body?: unknown,
  ): Promise<Record<string, unknown> | undefined> => {
    try {
      const response = await fetch(`${root}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        ...(signal ? { signal } : {}),
      });
      if (!response.ok) return undefined;
      const json: unknown = await response.json();
      return isRecord(json) ? json : undefined;
    } catch {
      return undefined;
    }
  };
  const props = await get('/props');
  const slot = props?.default_generation_settings;
  if (isRecord(slot) && isCount(slot.n_ctx)) {
    // llama-server b5300+ (multimodal in the server) reports `modalities`; older builds take no images.
    const vision = isRecord(props?.modalities) ? props.modalities.vision : undefined;
    return {
      server: 'llama.cpp',
      window: slot.n_ctx,
      ...(typeof vision === 'boolean' ? { acceptsImages: vision } : {}),
    };
  }
  const ps = await get('/api/ps');
  if (ps && Array.isArray(ps.models)) {
    const loaded: unknown = ps.models.find(
      (entry) => isRecord(entry) && (entry.name === model || entry.model === model),
    );
    const show = await get('/api/show', { model });
    const info = show?.model_info;
    let trainedMax: number | undefined;
    if (isRecord(info)) {
      for (const [key, value] of Object.entries(info))
        if (key.endsWith('.context_length') && isCount(value)) trainedMax = value;
    }
    const window =
      isRecord(loaded) && isCount(loaded.context_length) ? loaded.context_length : undefined;
    // Ollama 0.6.4+ lists `capabilities` (`completion`, `tools`, `vision`, `thinking`…).
    const capabilities = show?.capabilities;
    return {
      server: 'ollama',
      ...(Array.isArray(capabilities) ? { vision: capabilities.includes('vision') } : {}),
      ...(window === undefined ? {} : { window }),
      ...(trainedMax === undefined ? {} : { trainedMax }),
      ...(Array.isArray(capabilities) ? { acceptsImages: capabilities.includes('vision') } : {}),
    };
  }
  const lmStudio = await get('/api/v0/models');
  const lmModel = findModel(lmStudio, model);
  if (lmModel) {
    const window =
      lmModel.loaded_context_length ?? lmModel.context_length ?? lmModel.max_context_length;
    const type = lmModel.type;
    if (isCount(window)) {
      return {
        server: 'lmstudio',
        window,
        ...(typeof type === 'string' ? { acceptsImages: type === 'vlm' } : {}),
      };
    }
  }
  const vllm = findModel(await get('/v1/models'), model);
  if (vllm && isCount(vllm.max_model_len)) return { server: 'vllm', window: vllm.max_model_len };
  return {};
}

function findModel(
  list: Record<string, unknown> | undefined,
  model: string,
): Record<string, unknown> | undefined {
  if (!list || !Array.isArray(list.data)) return undefined;
  const found: unknown = list.data.find((entry) => isRecord(entry) && entry.id === model);
  return isRecord(found) ? found : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
