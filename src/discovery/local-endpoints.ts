/** A server to probe: a display name and its OpenAI-compatible root (ending in `/v1`). */
export interface EndpointCandidate {
  name: string;
  baseURL: string;
}

/** The usual local servers on their default ports. */
export const LOCAL_ENDPOINTS: readonly EndpointCandidate[] = [
  { name: 'Ollama', baseURL: 'http://localhost:11434/v1' },
  { name: 'LM Studio', baseURL: 'http://localhost:1234/v1' },
  { name: 'llama.cpp', baseURL: 'http://localhost:8080/v1' },
  { name: 'vLLM', baseURL: 'http://localhost:8000/v1' },
];

const NO_MODEL_FIXES: Record<string, string> = {
  '11434': 'Ollama has no model yet: pull one that can call tools, e.g. `ollama pull qwen3:4b`.',
  '1234':
    'LM Studio has no model loaded: load one in the app (or `lms load <model>`), with "Just-in-time loading" off.',
  '8080':
    'llama-server lists no model: start it with a model, e.g. `llama-server -m model.gguf --jinja`.',
  '8000':
    'vLLM lists no model: start it with one, e.g. `vllm serve Qwen/Qwen3-4B --enable-auto-tool-choice --tool-call-parser hermes`.',
};

/** The name of the server usually found on this URL's port, or `Custom`. */
export function serverName(baseURL: string): string {
  const port = portOf(baseURL);
  return LOCAL_ENDPOINTS.find((candidate) => portOf(candidate.baseURL) === port)?.name ?? 'Custom';
}

/** How to get a model listed on the server at `baseURL`. */
export function noModelFix(baseURL: string): string {
  return (
    NO_MODEL_FIXES[portOf(baseURL) ?? ''] ??
    'The server lists no model: load or pull one, then scan again.'
  );
}

/**
 * A user-typed server address as an OpenAI-compatible root: trailing slashes dropped and
 * `/v1` added when there is no path (`http://localhost:11434` → `http://localhost:11434/v1`).
 * `undefined` when it is not an http(s) URL.
 */
export function normalizeBaseURL(input: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? '/v1' : path}`;
}

function portOf(baseURL: string): string | undefined {
  try {
    const url = new URL(baseURL);
    return url.port || (url.protocol === 'https:' ? '443' : '80');
  } catch {
    return undefined;
  }
}
