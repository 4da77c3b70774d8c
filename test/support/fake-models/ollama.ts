/** Ollama's API: `/api/version`, `/api/tags`, `/api/ps`, `/api/show`, `/api/generate` load/unload, `/api/delete`, `/api/pull` NDJSON. */
import { modelsList, type FakeRequest, type FakeServerState } from './shared.js';

export function ollamaRoutes(request: FakeRequest, state: FakeServerState): void {
  const { path, method, body, name, model, json } = request;
  const { models } = state;
  if (path === '/api/version') return json(200, { version: '0.12.6' });
  if (path === '/v1/models') return json(200, modelsList(state));
  if (path === '/api/tags')
    return json(200, {
      models: models.map((entry) => ({
        name: entry.name,
        model: entry.name,
        size: entry.size,
        digest: 'sha256:0',
        details: { format: 'gguf' },
      })),
    });
  if (path === '/api/ps')
    return json(200, {
      models: models
        .filter((entry) => entry.loaded)
        .map((entry) => ({
          name: entry.name,
          model: entry.name,
          size: entry.size,
          size_vram: entry.size,
          expires_at: '2026-11-28T00:00:00Z',
          context_length: entry.contextLength,
        })),
    });
  if (path === '/api/show') {
    if (!model) return json(404, { error: `model '${name}' not found` });
    return json(200, {
      model_info: {
        'general.architecture': 'qwen3',
        'qwen3.context_length': model.maxContextLength,
      },
      capabilities: [
        'completion',
        ...(model.tools ? ['tools'] : []),
        ...(model.vision ? ['vision'] : []),
        ...(model.thinking ? ['thinking'] : []),
      ],
    });
  }
  if (path === '/api/generate') {
    if (!model) return json(404, { error: `model '${name}' not found` });
    const options = body.options as { num_ctx?: number } | undefined;
    model.loaded = body.keep_alive !== 0;
    model.contextLength = model.loaded ? (options?.num_ctx ?? 4096) : 0;
    return json(200, {
      model: name,
      created_at: '2026-11-27T00:00:00Z',
      response: '',
      done: true,
      done_reason: model.loaded ? 'load' : 'unload',
    });
  }
  if (path === '/api/delete' && method === 'DELETE') {
    if (!model) return json(404, { error: `model '${name}' not found` });
    models.splice(models.indexOf(model), 1);
    return json(200, {});
  }
  if (path === '/api/pull') return ollamaPull(request, state);
  return json(404, { error: '404 page not found' });
}

/** `/api/pull`: NDJSON per layer, then verifying, writing manifest, success. */
function ollamaPull({ name, response }: FakeRequest, server: FakeServerState): void {
  response.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const line = (value: unknown) => response.write(`${JSON.stringify(value)}\n`);
  line({ status: 'pulling manifest' });
  const state = server.download(name);
  if (!state) {
    response.end(`${JSON.stringify({ error: 'pull model manifest: file does not exist' })}\n`);
    return;
  }
  let gone = false;
  response.on('close', () => (gone = true));
  const digests = state.layers.map((_, index) => `sha256:${String(index).repeat(64)}`);
  void state
    .run(
      (layer) =>
        line({
          status: `pulling ${digests[layer]?.slice(7, 19)}`,
          digest: digests[layer],
          total: state.layers[layer],
          completed: state.done[layer],
        }),
      () => gone,
    )
    .then(async (end) => {
      if (end === 'dropped') return response.socket?.destroy();
      if (end === 'error')
        return response.end(`${JSON.stringify({ error: state.options.errorAt?.message })}\n`);
      if (end === 'stopped') return;
      line({ status: 'verifying sha256 digest' });
      await new Promise((resolve) => setTimeout(resolve, state.options.verifyMs ?? 600));
      line({ status: 'writing manifest' });
      server.addModel(name, state.total);
      response.end(`${JSON.stringify({ status: 'success' })}\n`);
    });
}
