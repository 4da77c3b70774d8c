/**
 * Fake model servers, one per API `localModels` and `checkServer` speak, answering with the
 * shapes of each server's docs: Ollama (`/api/version`, `/api/tags`, `/api/ps`, `/api/show`,
 * `/api/pull` NDJSON, `/api/generate` load/unload, `/api/delete`), LM Studio v1 (0.4+:
 * `/api/v1/models`, `/load`, `/unload`, `/download` + `/download/status/:id`) and v0
 * (`/api/v0/models`), llama.cpp with one model (`/props`, `/v1/models`) and as a router
 * (`/props` `role: "router"`, `/models`, `/models/load|unload`, `POST /models` +
 * `/models/sse`, `DELETE /models`), vLLM (`/version`, `/v1/models` `max_model_len`) and a bare
 * OpenAI-compatible server (`/v1/models` only). Chat: fake-model-chat.ts. Every request is
 * recorded. Listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerChat, type FakeChatBehaviour } from './fake-model-chat.js';
import { FakeDownload, type FakeDownloadOptions } from './fake-model-pulls.js';

export type FakeModelServerKind =
  'ollama' | 'lmstudio-v1' | 'lmstudio-v0' | 'llama.cpp' | 'llama.cpp-router' | 'vllm' | 'openai';

export interface FakeModel {
  name: string;
  size: number;
  loaded: boolean;
  contextLength: number;
  maxContextLength: number;
  tools: boolean;
  vision: boolean;
  thinking: boolean;
}

export interface FakeModelServerOptions {
  kind: FakeModelServerKind;
  models?: FakeModel[];
  chat?: Partial<FakeChatBehaviour>;
  /** Downloads: per model name; a name not here is unknown to the registry. */
  downloads?: Record<string, FakeDownloadOptions>;
  /** Origins CORS allows (default `*`); `[]`: no CORS headers at all. */
  origins?: string[];
}

export interface FakeModelServer {
  url: string;
  /** `METHOD /path` of every request, in order. */
  requests: string[];
  /** JSON bodies of the chat requests. */
  chats: Record<string, unknown>[];
  models: FakeModel[];
  downloads: Map<string, FakeDownload>;
  close(): Promise<void>;
}

export const QWEN: FakeModel = {
  name: 'qwen3:4b',
  size: 2_497_293_918,
  loaded: true,
  contextLength: 4096,
  maxContextLength: 40960,
  tools: true,
  vision: false,
  thinking: true,
};
export const GEMMA: FakeModel = {
  name: 'gemma3:4b',
  size: 3_338_801_804,
  loaded: false,
  contextLength: 0,
  maxContextLength: 131072,
  tools: false,
  vision: true,
  thinking: false,
};

/** What each kind's model does in chat unless told otherwise. */
const CHAT: Record<FakeModelServerKind, FakeChatBehaviour> = {
  ollama: {
    toolCalls: 'native',
    ids: true,
    streamArguments: false,
    parallel: true,
    reasoning: 'field',
    window: 4096,
  },
  'lmstudio-v1': { toolCalls: 'native', reasoning: 'field', refusesOverflow: true, window: 4096 },
  'lmstudio-v0': { toolCalls: 'native', reasoning: 'none', refusesOverflow: true, window: 4096 },
  'llama.cpp': { toolCalls: 'native', reasoning: 'field', refusesOverflow: true, window: 8192 },
  'llama.cpp-router': {
    toolCalls: 'native',
    reasoning: 'field',
    refusesOverflow: true,
    window: 8192,
  },
  vllm: { toolCalls: 'native', reasoning: 'field', refusesOverflow: true, window: 32768 },
  openai: { toolCalls: 'native', reasoning: 'none', usage: true },
};

export async function startFakeModelServer(
  options: FakeModelServerOptions,
): Promise<FakeModelServer> {
  const { kind } = options;
  const models = (options.models ?? [QWEN, GEMMA]).map((model) => ({ ...model }));
  const downloads = new Map<string, FakeDownload>();
  const requests: string[] = [];
  const chats: Record<string, unknown>[] = [];
  const sseClients = new Set<ServerResponse>();
  const behaviour = { ...CHAT[kind], ...options.chat };
  const origins = options.origins ?? ['*'];

  const download = (name: string): FakeDownload | undefined => {
    const known = options.downloads?.[name];
    if (!known) return undefined;
    let state = downloads.get(name);
    if (!state) downloads.set(name, (state = new FakeDownload(known)));
    return state;
  };
  const addModel = (name: string, size: number): void => {
    if (!models.some((model) => model.name === name))
      models.push({ ...QWEN, name, size, loaded: false, contextLength: 0 });
  };

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const piece of request) raw += String(piece);
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    const method = request.method ?? 'GET';
    requests.push(`${method} ${path}`);
    const origin = request.headers.origin;
    if (origin !== undefined && (origins.includes('*') || origins.includes(origin))) {
      response.setHeader('access-control-allow-origin', origins.includes('*') ? '*' : origin);
    }
    if (method === 'OPTIONS') {
      if (response.hasHeader('access-control-allow-origin')) {
        response.setHeader('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
        response.setHeader('access-control-allow-headers', 'authorization, content-type');
      }
      response.writeHead(204).end();
      return;
    }
    const body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
    const json = (status: number, value: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    const name =
      typeof body.model === 'string' ? body.model : (url.searchParams.get('model') ?? '');
    const model = models.find((entry) => entry.name === name);

    if (path === '/v1/chat/completions' && method === 'POST') {
      chats.push(body);
      if (kind === 'vllm' && !model)
        return json(404, {
          object: 'error',
          message: `The model \`${name}\` does not exist.`,
          type: 'NotFoundError',
          param: null,
          code: 404,
        });
      if (kind !== 'openai' && kind !== 'vllm' && kind !== 'llama.cpp' && !model) {
        return json(
          404,
          kind === 'ollama'
            ? {
                error: {
                  message: `model "${name}" not found, try pulling it first`,
                  type: 'api_error',
                },
              }
            : { error: { message: `model ${name} not found` } },
        );
      }
      if (model && !model.loaded && (kind === 'ollama' || kind === 'llama.cpp-router')) {
        model.loaded = true; // both load a model on first use
        model.contextLength = behaviour.window ?? 4096;
      }
      return answerChat(
        body,
        { ...behaviour, ...(model?.vision ? { images: true } : {}) },
        response,
      );
    }
    const modelsList = () => ({
      object: 'list',
      data: models.map((entry) => ({
        id: entry.name,
        object: 'model',
        // Each server's own word: Ollama gives the model's namespace (`library` for its own).
        owned_by:
          kind === 'vllm'
            ? 'vllm'
            : kind.startsWith('llama.cpp')
              ? 'llamacpp'
              : kind === 'ollama'
                ? 'library'
                : 'organization_owner',
        ...(kind === 'vllm' ? { max_model_len: entry.maxContextLength } : {}),
      })),
    });
    switch (kind) {
      case 'ollama':
        return ollama();
      case 'lmstudio-v1':
      case 'lmstudio-v0':
        return lmStudio();
      case 'llama.cpp':
      case 'llama.cpp-router':
        return llamaCpp();
      case 'vllm':
        if (path === '/version') return json(200, { version: '0.11.0' });
        if (path === '/v1/models') return json(200, modelsList());
        return json(404, { detail: 'Not Found' });
      case 'openai':
        if (path === '/v1/models') return json(200, modelsList());
        return json(404, { error: { message: 'Not found' } });
    }

    function ollama(): void {
      if (path === '/api/version') return json(200, { version: '0.12.6' });
      if (path === '/v1/models') return json(200, modelsList());
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
      if (path === '/api/pull') return ollamaPull();
      return json(404, { error: '404 page not found' });
    }

    function ollamaPull(): void {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const line = (value: unknown) => response.write(`${JSON.stringify(value)}\n`);
      line({ status: 'pulling manifest' });
      const state = download(name);
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
          addModel(name, state.total);
          response.end(`${JSON.stringify({ status: 'success' })}\n`);
        });
    }

    function lmStudio(): void {
      if (path === '/v1/models') return json(200, modelsList());
      if (kind === 'lmstudio-v0') {
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
        const state = download(name);
        if (!state)
          return json(400, { error: { message: `Could not find "${name}" in the model catalog` } });
        void state
          .run(
            () => undefined,
            () => false,
          )
          .then((end) => (end === 'done' ? addModel(name, state.total) : undefined));
        return json(200, lmJob(name, state));
      }
      const job = /^\/api\/v1\/models\/download\/status\/job_(.+)$/.exec(path);
      if (job) {
        const state = downloads.get(decodeURIComponent(job[1] ?? ''));
        if (!state) return json(404, { error: { message: 'No such job' } });
        return json(200, lmJob(decodeURIComponent(job[1] ?? ''), state));
      }
      return json(200, { error: `Unexpected endpoint or method. (${method} ${path})` });
    }

    function lmJob(jobName: string, state: FakeDownload) {
      const complete = state.fraction >= 1 && models.some((entry) => entry.name === jobName);
      return {
        job_id: `job_${jobName}`,
        status: complete ? 'completed' : 'downloading',
        total_size_bytes: state.total,
        downloaded_bytes: Math.round(state.fraction * state.total),
        ...(complete ? {} : { bytes_per_second: 1_000_000 }),
        started_at: '2026-11-27T00:00:00Z',
      };
    }

    function llamaCpp(): void {
      const router = kind === 'llama.cpp-router';
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
            ? modelsList()
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
        const state = downloads.get(name);
        if (state) cancelled.add(name);
        if (model) model.loaded = false;
        return json(200, { success: true });
      }
      if (path === '/models' && method === 'POST') {
        const state = download(name);
        if (!state)
          return json(400, {
            error: {
              code: 400,
              message: 'model validation failed, unable to download',
              type: 'invalid_request_error',
            },
          });
        cancelled.delete(name);
        const files = state.layers.map(
          (_, index) => `https://huggingface.co/${name}/resolve/main/part-${index}.gguf`,
        );
        void state
          .run(
            () =>
              event({
                model: name,
                event: 'download_progress',
                data: Object.fromEntries(
                  files.map((file, index) => [
                    file,
                    { done: state.done[index], total: state.layers[index] },
                  ]),
                ),
              }),
            () => cancelled.has(name),
          )
          .then((end) => {
            if (end === 'done') {
              addModel(name, state.total);
              event({ model: name, event: 'download_finished', data: {} });
            } else if (end === 'error')
              event({
                model: name,
                event: 'download_failed',
                data: { error: state.options.errorAt?.message },
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
  }
  const cancelled = new Set<string>();

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    chats,
    models,
    downloads,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sseClients) client.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
