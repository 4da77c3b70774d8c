import { AgentError, isAgentError } from '../errors/agent-error.js';

/** How many names the fix lists (a server with hundreds of models still gets a short line). */
const MAX_NAMES = 12;

/**
 * A 404 for a chat request, with the models the server has on a line of its own and as
 * `context.fix` (`<agent-chat>` shows that line unfolded): `GET {root}/models` (OpenAI API),
 * Ollama `GET /api/tags`. Asked only when the server's message names the model; unchanged
 * when the server lists the model anyway, lists nothing, or does not answer. Loaded only on a 404.
 */
export async function withServerModels(
  error: unknown,
  chatURL: string,
  request: { model: string },
  fetch: typeof globalThis.fetch,
): Promise<unknown> {
  const { model } = request;
  // Only a 404 about the model: Ollama 'model "x" not found', vLLM "The model `x` does not
  // exist.", LM Studio — each names it (a 404 for a wrong path names none).
  if (
    !isAgentError(error) ||
    error.status !== 404 ||
    error.context?.fix !== undefined ||
    !error.message.includes(model)
  )
    return error;
  const ollama = chatURL.endsWith('/api/chat');
  // Ollama's native API lists its models at /api/tags; the OpenAI API at …/v1/models.
  const names = await serverModels(
    ollama ? chatURL.replace(/chat$/, 'tags') : chatURL.replace(/chat\/completions$/, 'models'),
    ollama,
    fetch,
  );
  if (names.length === 0 || names.includes(model)) return error;
  const listed = names.slice(0, MAX_NAMES).join(', ') + (names.length > MAX_NAMES ? ', …' : '');
  // Ollama's names carry a tag (`qwen3:4b`), also through its /v1 API.
  const pull = ollama || names.some((name) => /:[\w.-]+$/.test(name));
  const fix = `The server has no model "${model}". Its models: ${listed}. Set \`model\` to one of them${pull ? `, or download it: \`ollama pull ${model}\`` : ''}.`;
  return new AgentError(error.code, `${error.message}\n${fix}`, {
    cause: error.cause,
    status: 404,
    context: { ...error.context, fix, models: names },
  });
}

async function serverModels(
  url: string,
  ollama: boolean,
  fetch: typeof globalThis.fetch,
): Promise<string[]> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return [];
    const json: unknown = await response.json();
    const list = isRecord(json) ? (ollama ? json.models : json.data) : undefined;
    if (!Array.isArray(list)) return [];
    return list.flatMap((entry: unknown) => {
      const name = isRecord(entry) ? (ollama ? entry.name : entry.id) : undefined;
      return typeof name === 'string' && name !== '' ? [name] : [];
    });
  } catch {
    return [];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
