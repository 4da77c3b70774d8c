import { AgentError } from '../errors/agent-error.js';
import { pageOrigin } from '../backend/page-origin.js';
import type { ServerIdentity } from './local-models.js';
import { isRecord, records, text } from './model-fields.js';
import { ServerHttp, type ProbeAnswer } from './server-http.js';
import {
  isOllamaVersion,
  kindFromModelList,
  llamaCppVariant,
  lmStudioVariant,
} from '../backend/identify-server.js';

/** What {@link detectServer} found, with what later requests need. */
export interface DetectedServer {
  identity: ServerIdentity;
  http: ServerHttp;
  /** The OpenAI-compatible root (`…/v1`). */
  baseURL: string;
  /** The answers the detection got, reused by the first `list()`. */
  answers: DetectionAnswers;
}

/** The detection probes' answers (undefined: nothing answered, or not this server). */
export interface DetectionAnswers {
  ollamaVersion?: ProbeAnswer | undefined;
  lmStudioV1?: ProbeAnswer | undefined;
  lmStudioV0?: ProbeAnswer | undefined;
  props?: ProbeAnswer | undefined;
  vllmVersion?: ProbeAnswer | undefined;
  models?: ProbeAnswer | undefined;
}

/** Per-probe limit: a local server answers these in milliseconds, a wrong host never. */
const PROBE_MS = 4_000;

/**
 * Asks the server, in parallel, what only one kind answers: Ollama `GET /api/version`,
 * LM Studio `GET /api/v1/models` (0.4+) and `GET /api/v0/models` (0.3.6+), llama.cpp
 * `GET /props` (`role: "router"` in router mode), vLLM `GET /version`, and anyone's
 * `GET /v1/models`; decides with the functions the context window's probe uses
 * (backend/identify-server.ts). Reads nothing but what it asked for; changes nothing.
 * @throws AgentError `NETWORK_ERROR` (nothing answered; in a page, with the CORS fix),
 *   `INVALID_RESPONSE` (something answered, but no model API), `EXECUTION_CANCELLED`.
 */
export async function detectServer(options: {
  baseURL: string;
  api?: 'openai' | 'ollama' | undefined;
  fetch?: typeof globalThis.fetch | undefined;
  signal?: AbortSignal | undefined;
}): Promise<DetectedServer> {
  const given = options.baseURL.trim().replace(/\/+$/, '');
  const root = given.replace(/\/(v1|api)$/, '');
  const path = new URL(root).pathname.replace(/\/+$/, '');
  // A server under a path of its own (`https://host/openai/v1`) keeps it; local servers sit at the root.
  const baseURL = path === '' || given.endsWith('/api') ? `${root}/v1` : given;
  const http = new ServerHttp(root, options.fetch);
  const ask = (url: string) => http.probe(url, { signal: options.signal, timeoutMs: PROBE_MS });
  const modelsPath = baseURL.slice(root.length) + '/models';
  if (options.api === 'ollama') {
    const ollamaVersion = await ask('/api/version');
    return {
      identity: ollama(ollamaVersion),
      http,
      baseURL: `${root}/v1`,
      answers: { ollamaVersion },
    };
  }
  const [ollamaVersion, lmStudioV1, lmStudioV0, props, vllmVersion, models] = await Promise.all(
    ['/api/version', '/api/v1/models', '/api/v0/models', '/props', '/version', modelsPath].map(ask),
  );
  const answers: DetectionAnswers = {
    ollamaVersion,
    lmStudioV1,
    lmStudioV0,
    props,
    vllmVersion,
    models,
  };
  const found = (identity: ServerIdentity): DetectedServer => ({
    identity,
    http,
    baseURL,
    answers,
  });
  if (ok(ollamaVersion) && isOllamaVersion(ollamaVersion.json)) return found(ollama(ollamaVersion));
  if (ok(lmStudioV1) && lmStudioVariant(lmStudioV1.json, 'v1'))
    return found({ kind: 'lmstudio', name: 'LM Studio', variant: 'v1' });
  if (ok(lmStudioV0) && lmStudioVariant(lmStudioV0.json, 'v0'))
    return found({ kind: 'lmstudio', name: 'LM Studio', variant: 'v0' });
  const variant = ok(props) ? llamaCppVariant(props.json) : undefined;
  if (variant) {
    const version = isRecord(props?.json) ? text(props.json.build_info) : undefined;
    return found({
      kind: 'llama.cpp',
      name: 'llama.cpp',
      variant,
      ...(version ? { version } : {}),
    });
  }
  const listed = ok(models) ? records(field(models, 'data')) : [];
  const vllmVersionText = ok(vllmVersion) ? text(field(vllmVersion, 'version')) : undefined;
  if (
    (ok(models) && kindFromModelList(models.json) === 'vllm') ||
    (vllmVersionText !== undefined && listed.length > 0)
  ) {
    return found({
      kind: 'vllm',
      name: 'vLLM',
      ...(vllmVersionText ? { version: vllmVersionText } : {}),
    });
  }
  if (ok(models) && Array.isArray(field(models, 'data')))
    return found({ kind: 'openai-compatible', name: 'OpenAI-compatible server' });
  if (
    [ollamaVersion, lmStudioV1, lmStudioV0, props, vllmVersion, models].some(
      (answer) => answer !== undefined,
    )
  ) {
    throw new AgentError(
      'INVALID_RESPONSE',
      `${root} answered, but not as a model server: GET ${modelsPath} gave HTTP ${models?.status ?? 'nothing'}. Check the address (and its /v1 part).`,
    );
  }
  // Only a page meets CORS; elsewhere (Node, the doctor) a silent server is down or elsewhere.
  const origin = pageOrigin();
  const hint =
    origin === undefined
      ? undefined
      : (await import('../backend/cors-hint.js')).corsHint(`${baseURL}/models`, origin);
  throw new AgentError(
    'NETWORK_ERROR',
    hint ?? `Nothing answered at ${root}: start the server, or check the address and port.`,
  );
}

function ollama(version: ProbeAnswer | undefined): ServerIdentity {
  const number = text(field(version, 'version'));
  return { kind: 'ollama', name: 'Ollama', ...(number ? { version: number } : {}) };
}

function ok(answer: ProbeAnswer | undefined): answer is ProbeAnswer {
  return answer !== undefined && answer.status >= 200 && answer.status < 300;
}

function field(answer: ProbeAnswer | undefined, key: string): unknown {
  return isRecord(answer?.json) ? answer.json[key] : undefined;
}
