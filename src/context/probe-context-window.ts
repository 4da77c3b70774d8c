import { kindFromModelList, modelEntry, type ServerKind } from '../backend/identify-server.js';
import { templateStartsInReasoning } from '../stream/template-starts-in-reasoning.js';

/** The local servers whose context window we can ask for, and name the fix of. */
export type ContextServer = ServerKind;

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
  /**
   * Whether the model's output starts mid-thought, where the answer already asked says:
   * llama.cpp `/props` `chat_template` (its generation prompt leaves a thought open, see
   * template-starts-in-reasoning.ts); Ollama `/api/show` `capabilities` with `thinking` →
   * `false` (Ollama then reads the model's thought itself and sends it as `thinking`, by
   * default since the capability exists). Absent: the server did not say.
   */
  startsInReasoning?: boolean;
}

/** What {@link probeContextWindow} needs. */
export interface ProbeOptions {
  baseURL: string;
  model: string;
  fetch: typeof globalThis.fetch;
  signal?: AbortSignal | undefined;
  /**
   * The server, when its answers already said (a chat chunk's `system_fingerprint`, or
   * `api: 'ollama'`): only its endpoint is asked. Else `GET /v1/models` names it first.
   */
  server?: ServerKind | undefined;
}

/** Per-request limit: a local server answers these in milliseconds; a later fit may wait on them. */
const PROBE_MS = 10_000;

const probes = new Map<string, Promise<ContextProbe>>();

/**
 * Asks the server for the model's context window, at the one endpoint of the server it is
 * (`options.server`, else named by `GET /v1/models`'s `owned_by`, see identify-server.ts):
 * llama.cpp `GET /props`, vLLM `GET /v1/models` (`max_model_len`), LM Studio
 * `GET /api/v0/models` (then `/api/v1/models`), Ollama `GET /api/ps` (the loaded window) and
 * `POST /api/show` (the trained maximum). No endpoint a server lacks is tried: a working
 * setup logs no failed request. The same answers say whether the model takes images
 * (llama.cpp and Ollama; vLLM and LM Studio do not tell: their refusal is explained instead,
 * see server-setup-hint.ts).
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
  { model, fetch, signal, server: given }: ProbeOptions,
): Promise<ContextProbe> {
  const get = async (
    path: string,
    body?: unknown,
  ): Promise<Record<string, unknown> | undefined> => {
    const limit = AbortSignal.timeout(PROBE_MS);
    try {
      const response = await fetch(`${root}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        signal: signal ? AbortSignal.any([signal, limit]) : limit,
      });
      if (!response.ok) return undefined;
      const json: unknown = await response.json();
      return isRecord(json) ? json : undefined;
    } catch {
      return undefined;
    }
  };
  let models: Record<string, unknown> | undefined;
  let server = given;
  if (server === undefined) {
    // Every OpenAI-compatible server has this route: asking it fails nowhere.
    models = await get('/v1/models');
    server = kindFromModelList(models) ?? (portOf(root) === '11434' ? 'ollama' : undefined);
  }
  switch (server) {
    case 'llama.cpp':
      return fromProps(await get('/props'));
    case 'ollama':
      return fromOllama(model, await get('/api/ps'), await get('/api/show', { model }));
    case 'lmstudio':
      return fromLmStudio(model, get);
    case 'vllm': {
      const entry = modelEntry(models ?? (await get('/v1/models')), model);
      return isCount(entry?.max_model_len)
        ? { server: 'vllm', window: entry.max_model_len }
        : { server: 'vllm' };
    }
    case undefined:
      return {};
  }
}

function fromProps(props: Record<string, unknown> | undefined): ContextProbe {
  const slot = props?.default_generation_settings;
  if (!isRecord(slot) || !isCount(slot.n_ctx)) return { server: 'llama.cpp' };
  // llama-server b5300+ (multimodal in the server) reports `modalities`; older builds take no images.
  const vision = isRecord(props?.modalities) ? props.modalities.vision : undefined;
  const template = props?.chat_template;
  const thought = typeof template === 'string' ? templateStartsInReasoning(template) : undefined;
  return {
    server: 'llama.cpp',
    window: slot.n_ctx,
    ...(typeof vision === 'boolean' ? { acceptsImages: vision } : {}),
    ...(thought === undefined ? {} : { startsInReasoning: thought }),
  };
}

function fromOllama(
  model: string,
  ps: Record<string, unknown> | undefined,
  show: Record<string, unknown> | undefined,
): ContextProbe {
  const loaded: unknown = Array.isArray(ps?.models)
    ? ps.models.find((entry) => isRecord(entry) && (entry.name === model || entry.model === model))
    : undefined;
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
    ...(window === undefined ? {} : { window }),
    ...(trainedMax === undefined ? {} : { trainedMax }),
    ...(Array.isArray(capabilities) ? { acceptsImages: capabilities.includes('vision') } : {}),
    // `thinking`: Ollama found the model's thinking tags and splits them out itself (it turns
    // `think` on for such a model when the request leaves it unset): no hold is needed.
    ...(Array.isArray(capabilities) && capabilities.includes('thinking')
      ? { startsInReasoning: false }
      : {}),
  };
}

async function fromLmStudio(
  model: string,
  get: (path: string) => Promise<Record<string, unknown> | undefined>,
): Promise<ContextProbe> {
  // LM Studio answers 200 to a path it lacks: trying v0, then v1 (0.4+), logs no failure.
  const v0 = modelEntry(await get('/api/v0/models'), model);
  if (v0) {
    const window = v0.loaded_context_length ?? v0.context_length ?? v0.max_context_length;
    const type = v0.type;
    return {
      server: 'lmstudio',
      ...(isCount(window) ? { window } : {}),
      ...(typeof type === 'string' ? { acceptsImages: type === 'vlm' } : {}),
    };
  }
  const v1 = await get('/api/v1/models');
  const found: unknown = Array.isArray(v1?.models)
    ? v1.models.find((entry) => isRecord(entry) && entry.key === model)
    : undefined;
  if (!isRecord(found)) return { server: 'lmstudio' };
  const instance: unknown = Array.isArray(found.loaded_instances)
    ? found.loaded_instances[0]
    : undefined;
  const config = isRecord(instance) && isRecord(instance.config) ? instance.config : {};
  const window = isCount(config.context_length) ? config.context_length : found.max_context_length;
  const vision = isRecord(found.capabilities) ? found.capabilities.vision : undefined;
  return {
    server: 'lmstudio',
    ...(isCount(window) ? { window } : {}),
    ...(typeof vision === 'boolean' ? { acceptsImages: vision } : {}),
  };
}

function portOf(url: string): string | undefined {
  try {
    return new URL(url).port;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
