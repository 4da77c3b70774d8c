/**
 * Fake model servers, one per API `localModels` and `checkServer` speak, answering with the
 * shapes of each server's docs, one file per kind under fake-models/: Ollama (ollama.ts), LM
 * Studio v1 and v0 (lmstudio.ts), llama.cpp with one model and as a router (llamacpp.ts), vLLM
 * and a bare OpenAI-compatible server (openai.ts). Chat: fake-model-chat.ts; downloads:
 * fake-model-pulls.ts. Every request is recorded. Listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerChat, type FakeChatBehaviour } from './fake-model-chat.js';
import { FakeDownload, type FakeDownloadOptions } from './fake-model-pulls.js';
import { llamaCppRoutes } from './fake-models/llamacpp.js';
import { lmStudioRoutes } from './fake-models/lmstudio.js';
import { ollamaRoutes } from './fake-models/ollama.js';
import { openAiRoutes, vllmRoutes } from './fake-models/openai.js';
import {
  QWEN,
  GEMMA,
  type FakeModel,
  type FakeModelServerKind,
  type FakeRequest,
  type FakeServerState,
} from './fake-models/shared.js';

export { QWEN, GEMMA, type FakeModel, type FakeModelServerKind };

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

/** Each kind's management routes (chat is answered before them, alike for all). */
const ROUTES: Record<FakeModelServerKind, (request: FakeRequest, state: FakeServerState) => void> =
  {
    ollama: ollamaRoutes,
    'lmstudio-v1': lmStudioRoutes,
    'lmstudio-v0': lmStudioRoutes,
    'llama.cpp': llamaCppRoutes,
    'llama.cpp-router': llamaCppRoutes,
    vllm: vllmRoutes,
    openai: openAiRoutes,
  };

export async function startFakeModelServer(
  options: FakeModelServerOptions,
): Promise<FakeModelServer> {
  const { kind } = options;
  const models = (options.models ?? [QWEN, GEMMA]).map((model) => ({ ...model }));
  const downloads = new Map<string, FakeDownload>();
  const requests: string[] = [];
  const chats: Record<string, unknown>[] = [];
  const origins = options.origins ?? ['*'];
  const state: FakeServerState = {
    kind,
    models,
    downloads,
    behaviour: { ...CHAT[kind], ...options.chat },
    sseClients: new Set<ServerResponse>(),
    cancelled: new Set<string>(),
    download(name) {
      const known = options.downloads?.[name];
      if (!known) return undefined;
      let download = downloads.get(name);
      if (!download) downloads.set(name, (download = new FakeDownload(known)));
      return download;
    },
    addModel(name, size) {
      if (!models.some((model) => model.name === name))
        models.push({ ...QWEN, name, size, loaded: false, contextLength: 0 });
    },
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
      return chat({ body, name, model, response, json });
    }
    ROUTES[kind]({ path, method, url, body, name, model, response, json }, state);
  }

  /** `/v1/chat/completions`: an unknown model is refused where the server checks names. */
  function chat({
    body,
    name,
    model,
    response,
    json,
  }: Pick<FakeRequest, 'body' | 'name' | 'model' | 'response' | 'json'>): void {
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
      model.contextLength = state.behaviour.window ?? 4096;
    }
    answerChat(body, { ...state.behaviour, ...(model?.vision ? { images: true } : {}) }, response);
  }

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
        for (const client of state.sseClients) client.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
