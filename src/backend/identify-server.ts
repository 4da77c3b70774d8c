/**
 * The one place that tells local servers apart, from what they answer anyway: a chat chunk's
 * `system_fingerprint`, the `owned_by` of `/v1/models` entries, and each server's own
 * endpoints (Ollama `/api/version`, LM Studio `/api/v1/models` and `/api/v0/models`,
 * llama.cpp `/props`). The context window's probe (context/probe-context-window.ts) and
 * `localModels` / `checkServer` (models/detect-server.ts) both decide with these functions.
 * Loaded on first use only (neither caller is in a first load).
 */

/** The local servers told apart. */
export type ServerKind = 'ollama' | 'llama.cpp' | 'vllm' | 'lmstudio';

/**
 * The server a chat chunk's `system_fingerprint` names: Ollama sends `fp_ollama`, llama-server
 * its build (`b7200-0c53b2a`), LM Studio the model's id. vLLM sends none: undefined.
 */
export function kindFromFingerprint(fingerprint: unknown, model: string): ServerKind | undefined {
  if (typeof fingerprint !== 'string' || fingerprint === '') return undefined;
  if (fingerprint === 'fp_ollama') return 'ollama';
  if (/^b\d+-[0-9a-f]{6,}$/.test(fingerprint)) return 'llama.cpp';
  if (fingerprint === model) return 'lmstudio';
  return undefined;
}

/**
 * The server a `/v1/models` answer names: `owned_by` is `vllm` (vLLM, also `max_model_len`),
 * `llamacpp` (llama-server), `organization_owner` (LM Studio) or, on Ollama, the model's
 * namespace (`library` for its own models). Undefined for any other server.
 */
export function kindFromModelList(list: unknown): ServerKind | undefined {
  for (const entry of entriesOf(list)) {
    if (entry.owned_by === 'vllm' || typeof entry.max_model_len === 'number') return 'vllm';
    if (entry.owned_by === 'llamacpp') return 'llama.cpp';
    if (entry.owned_by === 'organization_owner') return 'lmstudio';
    if (entry.owned_by === 'library') return 'ollama';
  }
  return undefined;
}

/** The entry of a `/v1/models` (or LM Studio `/api/v0/models`) answer whose `id` is `model`. */
export function modelEntry(list: unknown, model: string): Record<string, unknown> | undefined {
  return entriesOf(list).find((entry) => entry.id === model);
}

/** llama.cpp's `/props`: `router` (started without a model), `single`, or undefined (not llama.cpp). */
export function llamaCppVariant(props: unknown): 'router' | 'single' | undefined {
  if (!isRecord(props)) return undefined;
  if (props.role === 'router') return 'router';
  return 'default_generation_settings' in props ? 'single' : undefined;
}

/** Ollama's `/api/version` answer: `{ version }`. */
export function isOllamaVersion(answer: unknown): boolean {
  return isRecord(answer) && typeof answer.version === 'string' && answer.version !== '';
}

/** LM Studio's management list: `v1` (0.4+, `/api/v1/models` `{ models }`), `v0` (0.3.6+, entries with `state`). */
export function lmStudioVariant(answer: unknown, api: 'v0' | 'v1'): boolean {
  if (!isRecord(answer)) return false;
  return api === 'v1'
    ? Array.isArray(answer.models)
    : entriesOf(answer).some((entry) => 'state' in entry);
}

function entriesOf(list: unknown): Record<string, unknown>[] {
  return isRecord(list) && Array.isArray(list.data) ? list.data.filter(isRecord) : [];
}

// Its own copy: a module this lazy code shared with the first load would cost a file there.
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
