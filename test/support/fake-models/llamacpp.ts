/**
 * llama.cpp's `llama-server`: one model (`/props`, `/v1/models` with `meta`) or a router
 * (`/props` `role: "router"`, `/models`, `/models/load|unload`, `POST /models` with progress on
 * `/models/sse`, `DELETE /models`).
 */
import { modelsList, type FakeRequest, type FakeServerState } from './shared.js';

export function llamaCppRoutes(request: FakeRequest, state: FakeServerState): void {
  const { path, method, url, json, response } = request;
  const { models, behaviour, sseClients } = state;
  const router = state.kind === 'llama.cpp-router';
  if (path === '/props') {
    if (router && !url.searchParams.has('model'))
      return json(200, { role: 'router', build_info: 'b7200-0c53b2a' });
    return json(200, {
      default_generation_settings: { n_ctx: behaviour.window ?? 8192 },
      total_slots: 1,
      model_path: '/models/qwen3-4b.gguf',
      modalities: { vision: false, audio: false },
      chat_template_caps: { supports_tool_calls: true, supports_tools: true },
      build_info: 'b7200-0c53b2a',
    });
  }
  if (path === '/v1/models')
    return json(
      200,
      router
        ? modelsList(state)
        : {
            object: 'list',
            data: models.slice(0, 1).map((entry) => ({
              id: entry.name,
              object: 'model',
              owned_by: 'llamacpp',
              meta: { n_ctx_train: entry.maxContextLength, size: entry.size },
            })),
          },
    );
  if (!router)
    return json(404, {
      error: { code: 404, message: 'File Not Found', type: 'not_found_error' },
    });
  if (path === '/models' && method === 'GET')
    return json(200, {
      data: models.map((entry) => ({
        id: entry.name,
        object: 'model',
        path: `/cache/${entry.name}.gguf`,
        status: entry.loaded
          ? { value: 'loaded', args: ['llama-server', '-c', String(entry.contextLength)] }
          : { value: 'unloaded' },
        architecture: {
          input_modalities: entry.vision ? ['text', 'image'] : ['text'],
          output_modalities: ['text'],
        },
      })),
    });
  if (path === '/models/sse') {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(': connected\n\n');
    sseClients.add(response);
    response.on('close', () => sseClients.delete(response));
    return;
  }
  return routerChanges(request, state);
}

/** The router's load, unload, download and delete. */
function routerChanges(request: FakeRequest, state: FakeServerState): void {
  const { path, method, name, model, json } = request;
  const { models, behaviour, downloads, cancelled, sseClients } = state;
  const event = (value: unknown) => {
    for (const client of sseClients) client.write(`data: ${JSON.stringify(value)}\n\n`);
  };
  if (path === '/models/load') {
    if (!model)
      return json(400, {
        error: { code: 400, message: `model ${name} not found`, type: 'invalid_request_error' },
      });
    model.loaded = true;
    model.contextLength = behaviour.window ?? 8192;
    return json(200, { success: true });
  }
  if (path === '/models/unload') {
    if (downloads.get(name)) cancelled.add(name);
    if (model) model.loaded = false;
    return json(200, { success: true });
  }
  if (path === '/models' && method === 'POST') {
    const download = state.download(name);
    if (!download)
      return json(400, {
        error: {
          code: 400,
          message: 'model validation failed, unable to download',
          type: 'invalid_request_error',
        },
      });
    cancelled.delete(name);
    const files = download.layers.map(
      (_, index) => `https://huggingface.co/${name}/resolve/main/part-${index}.gguf`,
    );
    void download
      .run(
        () =>
          event({
            model: name,
            event: 'download_progress',
            data: Object.fromEntries(
              files.map((file, index) => [
                file,
                { done: download.done[index], total: download.layers[index] },
              ]),
            ),
          }),
        () => cancelled.has(name),
      )
      .then((end) => {
        if (end === 'done') {
          state.addModel(name, download.total);
          event({ model: name, event: 'download_finished', data: {} });
        } else if (end === 'error')
          event({
            model: name,
            event: 'download_failed',
            data: { error: download.options.errorAt?.message },
          });
      });
    return json(200, { success: true });
  }
  if (path === '/models' && method === 'DELETE') {
    if (!model)
      return json(404, {
        error: { code: 404, message: 'model not found', type: 'not_found_error' },
      });
    models.splice(models.indexOf(model), 1);
    return json(200, { success: true });
  }
  return json(404, {
    error: { code: 404, message: 'File Not Found', type: 'not_found_error' },
  });
}
