/** LM Studio's APIs: v1 (0.4+: `/api/v1/models`, `/load`, `/unload`, `/download` + status) and v0 (`/api/v0/models`). */
import type { FakeDownload } from '../fake-model-pulls.js';
import { modelsList, type FakeRequest, type FakeServerState } from './shared.js';

export function lmStudioRoutes(request: FakeRequest, state: FakeServerState): void {
  const { path, method, body, name, model, json } = request;
  const { models, downloads } = state;
  if (path === '/v1/models') return json(200, modelsList(state));
  if (state.kind === 'lmstudio-v0') {
    if (path === '/api/v0/models')
      return json(200, {
        object: 'list',
        data: models.map((entry) => ({
          id: entry.name,
          object: 'model',
          type: entry.vision ? 'vlm' : 'llm',
          publisher: 'lmstudio-community',
          arch: 'qwen3',
          compatibility_type: 'gguf',
          quantization: 'Q4_K_M',
          state: entry.loaded ? 'loaded' : 'not-loaded',
          max_context_length: entry.maxContextLength,
          ...(entry.loaded ? { loaded_context_length: entry.contextLength } : {}),
          capabilities: entry.tools ? ['tool_use'] : [],
        })),
      });
    return json(200, { error: 'Unexpected endpoint or method. (GET ' + path + ')' }); // LM Studio answers 200 to unknown paths
  }
  if (path === '/api/v1/models')
    return json(200, {
      models: models.map((entry) => ({
        type: 'llm',
        publisher: 'lmstudio-community',
        key: entry.name,
        display_name: entry.name,
        architecture: 'qwen3',
        quantization: { name: 'Q4_K_M', bits_per_weight: 4 },
        size_bytes: entry.size,
        params_string: '4B',
        loaded_instances: entry.loaded
          ? [{ id: entry.name, config: { context_length: entry.contextLength } }]
          : [],
        max_context_length: entry.maxContextLength,
        format: 'gguf',
        capabilities: { vision: entry.vision, trained_for_tool_use: entry.tools },
        description: null,
      })),
    });
  if (path === '/api/v1/models/load') {
    if (!model) return json(404, { error: { message: `Model "${name}" not found` } });
    const config = body.config as { context_length?: number } | undefined;
    model.loaded = true;
    model.contextLength = config?.context_length ?? 4096;
    return json(200, {
      model_instance_id: name,
      config: { context_length: model.contextLength },
      load_time_seconds: 1.5,
    });
  }
  if (path === '/api/v1/models/unload') {
    const loaded = models.find((entry) => entry.name === body.instance_id && entry.loaded);
    if (!loaded)
      return json(404, {
        error: { message: `No loaded instance "${String(body.instance_id)}"` },
      });
    loaded.loaded = false;
    return json(200, { instance_id: loaded.name });
  }
  if (path === '/api/v1/models/download') {
    if (models.some((entry) => entry.name === name))
      return json(200, { status: 'already_downloaded' });
    const download = state.download(name);
    if (!download)
      return json(400, { error: { message: `Could not find "${name}" in the model catalog` } });
    void download
      .run(
        () => undefined,
        () => false,
      )
      .then((end) => (end === 'done' ? state.addModel(name, download.total) : undefined));
    return json(200, lmJob(name, download, state));
  }
  const job = /^\/api\/v1\/models\/download\/status\/job_(.+)$/.exec(path);
  if (job) {
    const jobName = decodeURIComponent(job[1] ?? '');
    const download = downloads.get(jobName);
    if (!download) return json(404, { error: { message: 'No such job' } });
    return json(200, lmJob(jobName, download, state));
  }
  return json(200, { error: `Unexpected endpoint or method. (${method} ${path})` });
}

/** A download job as `/download` and `/download/status/:id` answer it. */
function lmJob(jobName: string, download: FakeDownload, { models }: FakeServerState) {
  const complete = download.fraction >= 1 && models.some((entry) => entry.name === jobName);
  return {
    job_id: `job_${jobName}`,
    status: complete ? 'completed' : 'downloading',
    total_size_bytes: download.total,
    downloaded_bytes: Math.round(download.fraction * download.total),
    ...(complete ? {} : { bytes_per_second: 1_000_000 }),
    started_at: '2026-11-27T00:00:00Z',
  };
}
