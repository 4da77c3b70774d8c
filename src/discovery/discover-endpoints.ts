import { pageOrigin as detectPageOrigin } from '../backend/page-origin.js';
import { AgentError, errorMessage } from '../errors/agent-error.js';
import {
  LOCAL_ENDPOINTS,
  noModelFix,
  normalizeBaseURL,
  serverName,
  type EndpointCandidate,
} from './local-endpoints.js';

/**
 * What a probe found: `ready` (answered with models), `no-models` (answered, but lists no
 * model), `cors` (running, but the browser blocked the page from reading it),
 * `unreachable` (nothing answered in time), `error` (answered, but not with a model list).
 */
export type EndpointStatus = 'ready' | 'no-models' | 'cors' | 'unreachable' | 'error';

/** One probed server. */
export interface DiscoveredEndpoint {
  /** `Ollama`, `LM Studio`, `llama.cpp`, `vLLM`, or `Custom`. */
  name: string;
  /** The OpenAI-compatible root, usable as `AgentOptions.baseURL`. */
  baseURL: string;
  status: EndpointStatus;
  /** Model ids from `GET {baseURL}/models`, in the server's order. */
  models: string[];
  /** What happened, in one sentence. */
  message: string;
  /** What to do about it (for `cors`: the setting of that server; for `no-models`: how to get one). */
  fix?: string;
}

/** Options for {@link discoverEndpoints}. */
export interface DiscoverEndpointsOptions {
  /** The fetch to use. Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Cancels every probe; the promise then rejects with `EXECUTION_CANCELLED`. */
  signal?: AbortSignal;
  /** Per-probe limit in milliseconds. Default 1500. */
  timeoutMs?: number;
  /** More servers to probe (e.g. one the user typed): `http://host:port` or a full `/v1` root. */
  urls?: readonly string[];
  /** Replaces the default list ({@link LOCAL_ENDPOINTS}: Ollama, LM Studio, llama.cpp, vLLM). */
  candidates?: readonly EndpointCandidate[];
  /**
   * The page's origin, for CORS detection and hints. Default: detected (`location.origin`
   * in a page or worker; none in Node, where there is no CORS).
   */
  pageOrigin?: string;
}

const DEFAULT_TIMEOUT_MS = 1_500;

/**
 * Probes local OpenAI-compatible servers — `GET /v1/models` on Ollama (11434), LM Studio
 * (1234), llama.cpp (8080), vLLM (8000) and any `urls` — in parallel, each with a short
 * timeout, and reports for each whether it answered and with which models. In a page, a
 * server the browser blocks is told apart from one that is down (by a second, opaque
 * `no-cors` request, which succeeds only when something answers), and the result says
 * how to allow the page's origin on that server. Never throws for a server's failure.
 *
 * @throws AgentError `EXECUTION_CANCELLED` when `signal` aborts.
 * @example
 * const found = await discoverEndpoints({ urls: ['http://192.168.1.20:11434'] });
 * const usable = found.find((endpoint) => endpoint.status === 'ready');
 * if (usable) chat.setAttribute('base-url', usable.baseURL), chat.setAttribute('model', usable.models[0]);
 */
export async function discoverEndpoints(
  options: DiscoverEndpointsOptions = {},
): Promise<DiscoveredEndpoint[]> {
  const fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const origin = options.pageOrigin ?? detectPageOrigin();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const candidates = [...(options.candidates ?? LOCAL_ENDPOINTS)];
  for (const url of options.urls ?? []) {
    const baseURL = normalizeBaseURL(url);
    if (baseURL === undefined) {
      throw new AgentError('VALIDATION_FAILED', `"${url}" is not an http(s) URL of a server`);
    }
    if (!candidates.some((candidate) => candidate.baseURL === baseURL))
      candidates.push({ name: serverName(baseURL), baseURL });
  }
  options.signal?.throwIfAborted();
  const results = await Promise.all(
    candidates.map((candidate) =>
      probe(candidate, { fetch, origin, timeoutMs, signal: options.signal }),
    ),
  );
  if (options.signal?.aborted === true) {
    throw new AgentError('EXECUTION_CANCELLED', 'Endpoint discovery was cancelled', {
      cause: options.signal.reason,
    });
  }
  return results;
}

interface ProbeContext {
  fetch: typeof globalThis.fetch;
  origin: string | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

async function probe(
  candidate: EndpointCandidate,
  context: ProbeContext,
): Promise<DiscoveredEndpoint> {
  const { name, baseURL } = candidate;
  const root = baseURL.replace(/\/+$/, '');
  const url = `${root}/models`;
  const found = (
    status: EndpointStatus,
    message: string,
    extra: { models?: string[]; fix?: string } = {},
  ): DiscoveredEndpoint => ({
    name,
    baseURL: root,
    status,
    models: extra.models ?? [],
    message,
    ...(extra.fix === undefined ? {} : { fix: extra.fix }),
  });
  let response: Response;
  try {
    response = await context.fetch(url, {
      headers: { accept: 'application/json' },
      signal: probeSignal(context),
    });
  } catch (error) {
    if (context.signal?.aborted === true) return found('unreachable', 'Cancelled');
    if (isTimeout(error))
      return found('unreachable', `No answer from ${root} within ${context.timeoutMs} ms`);
    if (await answersOpaquely(url, context)) {
      return found(
        'cors',
        `${name} is running at ${root}, but it does not allow this page (CORS)`,
        {
          fix:
            (await corsHintFor(url, context.origin)) ??
            `Allow the origin ${context.origin ?? '*'} in the server's CORS settings.`,
        },
      );
    }
    return found('unreachable', `Nothing answered at ${root} (${errorMessage(error)})`);
  }
  if (!response.ok) {
    const hint =
      response.status === 404 ? ': no OpenAI-compatible API at this path (check the /v1 part)' : '';
    return found('error', `${root}/models answered HTTP ${response.status}${hint}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return found(
      'error',
      `${root}/models answered, but not with JSON: probably not a model server`,
    );
  }
  const models = modelIds(body);
  if (models === undefined)
    return found('error', `${root}/models answered, but not with an OpenAI model list`);
  if (models.length === 0)
    return found('no-models', `${name} is running at ${root} but lists no model`, {
      fix: noModelFix(root),
    });
  const count = models.length === 1 ? '1 model' : `${models.length} models`;
  return found('ready', `${name} at ${root}: ${count}`, { models });
}

/**
 * In a page, a failed fetch is either "nothing there" or "there, but CORS forbids reading
 * it" — the browser reports both as the same TypeError. A `no-cors` request gets an opaque
 * answer whenever something responds, so it tells the two apart. Outside pages (Node) there
 * is no CORS, so a failure means unreachable.
 */
async function answersOpaquely(url: string, context: ProbeContext): Promise<boolean> {
  if (context.origin === undefined) return false;
  try {
    await context.fetch(url, { mode: 'no-cors', signal: probeSignal(context) });
    return true;
  } catch {
    return false;
  }
}

function probeSignal(context: ProbeContext): AbortSignal {
  const timeout = AbortSignal.timeout(context.timeoutMs);
  return context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
}

function isTimeout(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'TimeoutError'
  );
}

/** `{ data: [{ id }] }` (OpenAI) → the ids; `undefined` for anything else. */
function modelIds(body: unknown): string[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data)) return undefined;
  const ids: string[] = [];
  for (const item of data as unknown[]) {
    const id =
      typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
    if (typeof id === 'string' && id !== '') ids.push(id);
  }
  return ids;
}

/**
 * The CORS fix for a server that answers but not to this page. The table of servers loads only
 * now, for the failure it explains; when even that chunk cannot load, the generic advice.
 */
async function corsHintFor(url: string, origin: string | undefined): Promise<string | undefined> {
  try {
    return (await import('../backend/cors-hint.js')).corsHint(url, origin);
  } catch {
    return undefined;
  }
}
