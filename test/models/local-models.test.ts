import { afterEach, describe, expect, it } from 'vitest';
import { isAgentError, localModels, type PullProgress } from '../../src/index.js';
import {
  GEMMA,
  QWEN,
  startFakeModelServer,
  type FakeModelServer,
  type FakeModelServerKind,
} from '../support/fake-model-servers.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(
  kind: FakeModelServerKind,
  extra: Partial<Parameters<typeof startFakeModelServer>[0]> = {},
): Promise<FakeModelServer> {
  const server = await startFakeModelServer({ kind, ...extra });
  servers.push(server);
  return server;
}

function methods(models: {
  pull?: unknown;
  load?: unknown;
  unload?: unknown;
  remove?: unknown;
}): string[] {
  return (['pull', 'load', 'unload', 'remove'] as const).filter(
    (name) => typeof models[name] === 'function',
  );
}

describe('localModels: which server, and what it can do', () => {
  it.each([
    [
      'ollama',
      { kind: 'ollama', name: 'Ollama', version: '0.12.6' },
      ['pull', 'load', 'unload', 'remove'],
    ],
    [
      'lmstudio-v1',
      { kind: 'lmstudio', name: 'LM Studio', variant: 'v1' },
      ['pull', 'load', 'unload'],
    ],
    ['lmstudio-v0', { kind: 'lmstudio', name: 'LM Studio', variant: 'v0' }, []],
    [
      'llama.cpp',
      { kind: 'llama.cpp', name: 'llama.cpp', variant: 'single', version: 'b7200-0c53b2a' },
      [],
    ],
    [
      'llama.cpp-router',
      { kind: 'llama.cpp', name: 'llama.cpp', variant: 'router', version: 'b7200-0c53b2a' },
      ['pull', 'load', 'unload', 'remove'],
    ],
    ['vllm', { kind: 'vllm', name: 'vLLM', version: '0.11.0' }, []],
    ['openai', { kind: 'openai-compatible', name: 'OpenAI-compatible server' }, []],
  ] as const)('%s', async (kind, identity, can) => {
    const server = await start(kind);
    const models = await localModels({ baseURL: `${server.url}/v1` });
    expect(models.server).toEqual(identity);
    expect(models.baseURL).toBe(`${server.url}/v1`);
    expect(methods(models)).toEqual(can);
    // Detection changes nothing on the server.
    expect(server.requests.filter((request) => !request.startsWith('GET'))).toEqual([]);
  });

  it('api: "ollama" skips detection', async () => {
    const server = await start('ollama');
    const models = await localModels({ baseURL: server.url, api: 'ollama' });
    expect(models.server.kind).toBe('ollama');
    expect(server.requests).toEqual(['GET /api/version']);
  });

  it('reports a server that is not there as NETWORK_ERROR', async () => {
    const server = await start('openai');
    const url = server.url;
    await server.close();
    servers.length = 0;
    const error: unknown = await localModels({ baseURL: url }).catch((caught: unknown) => caught);
    expect(isAgentError(error, 'NETWORK_ERROR')).toBe(true);
  });
});

describe('localModels().list()', () => {
  const qwen = {
    name: 'qwen3:4b',
    size: QWEN.size,
    loaded: true,
    contextLength: 4096,
    maxContextLength: 40960,
  };
  it.each([
    [
      'ollama',
      [
        { ...qwen, capabilities: { tools: true, vision: false, thinking: true } },
        {
          name: 'gemma3:4b',
          size: GEMMA.size,
          loaded: false,
          maxContextLength: 131072,
          capabilities: { tools: false, vision: true, thinking: false },
        },
      ],
    ],
    [
      'lmstudio-v1',
      [
        { ...qwen, capabilities: { tools: true, vision: false } },
        {
          name: 'gemma3:4b',
          size: GEMMA.size,
          loaded: false,
          maxContextLength: 131072,
          capabilities: { tools: false, vision: true },
        },
      ],
    ],
    [
      'lmstudio-v0',
      [
        {
          name: 'qwen3:4b',
          loaded: true,
          contextLength: 4096,
          maxContextLength: 40960,
          capabilities: { vision: false, tools: true },
        },
        {
          name: 'gemma3:4b',
          loaded: false,
          maxContextLength: 131072,
          capabilities: { vision: true, tools: false },
        },
      ],
    ],
    ['llama.cpp', [{ ...qwen, contextLength: 8192, capabilities: { tools: true, vision: false } }]],
    [
      'llama.cpp-router',
      [
        { name: 'qwen3:4b', loaded: true, contextLength: 4096, capabilities: { vision: false } },
        { name: 'gemma3:4b', loaded: false, capabilities: { vision: true } },
      ],
    ],
    [
      'vllm',
      [
        {
          name: 'gemma3:4b',
          loaded: true,
          contextLength: 131072,
          maxContextLength: 131072,
          capabilities: {},
        },
        {
          name: 'qwen3:4b',
          loaded: true,
          contextLength: 40960,
          maxContextLength: 40960,
          capabilities: {},
        },
      ],
    ],
    [
      'openai',
      [
        { name: 'gemma3:4b', capabilities: {} },
        { name: 'qwen3:4b', capabilities: {} },
      ],
    ],
  ] as const)('%s: loaded first, with what the server tells', async (kind, expected) => {
    const server = await start(kind);
    const models = await localModels({ baseURL: server.url });
    expect(await models.list()).toEqual(expected);
  });
});

describe('load, unload, remove', () => {
  it('Ollama: an empty generate loads (with num_ctx), keep_alive 0 unloads, DELETE removes', async () => {
    const server = await start('ollama');
    const models = await localModels({ baseURL: server.url });
    await models.load?.('gemma3:4b', { contextLength: 16384 });
    expect((await models.list()).find((model) => model.name === 'gemma3:4b')).toMatchObject({
      loaded: true,
      contextLength: 16384,
    });
    await models.unload?.('gemma3:4b');
    expect((await models.list()).find((model) => model.name === 'gemma3:4b')?.loaded).toBe(false);
    await models.remove?.('gemma3:4b');
    expect((await models.list()).map((model) => model.name)).toEqual(['qwen3:4b']);
  });

  it('LM Studio v1: load with context_length, unload by instance id', async () => {
    const server = await start('lmstudio-v1');
    const models = await localModels({ baseURL: server.url });
    await models.load?.('gemma3:4b', { contextLength: 8192 });
    expect((await models.list())[0]).toMatchObject({
      name: 'gemma3:4b',
      loaded: true,
      contextLength: 8192,
    });
    await models.unload?.('gemma3:4b');
    expect(server.requests).toContain('POST /api/v1/models/unload');
    expect((await models.list()).find((model) => model.name === 'gemma3:4b')?.loaded).toBe(false);
  });

  it('llama.cpp router: /models/load and /models/unload; a context length is refused with the fix', async () => {
    const server = await start('llama.cpp-router');
    const models = await localModels({ baseURL: server.url });
    await models.load?.('gemma3:4b');
    expect((await models.list()).find((model) => model.name === 'gemma3:4b')?.loaded).toBe(true);
    await models.unload?.('gemma3:4b');
    expect((await models.list()).find((model) => model.name === 'gemma3:4b')?.loaded).toBe(false);
    const error: unknown = await models
      .load?.('gemma3:4b', { contextLength: 8192 })
      .catch((caught: unknown) => caught);
    expect(isAgentError(error, 'VALIDATION_FAILED') && error.message).toMatch(
      /llama-server -c 8192/,
    );
    await models.remove?.('gemma3:4b');
    expect(server.requests).toContain('DELETE /models');
  });
});

function record(list: PullProgress[]) {
  return (progress: PullProgress) => list.push(progress);
}

function expectWellFormed(progress: PullProgress[], total: number): void {
  const last = progress.at(-1);
  expect(last).toMatchObject({ done: true, percent: 100, completed: total, total });
  const before = progress.slice(0, -1);
  expect(before.every((step) => !step.done && step.percent < 100)).toBe(true);
  // Percent never goes back.
  expect(
    before.every((step, index) => index === 0 || step.percent >= (before[index - 1]?.percent ?? 0)),
  ).toBe(true);
}

describe('pull', () => {
  it('Ollama: layers summed, 100 % exactly at success, told during the silent verification', async () => {
    const server = await start('ollama', { downloads: { 'llama3.2:1b': { verifyMs: 900 } } });
    const models = await localModels({ baseURL: server.url });
    const progress: PullProgress[] = [];
    await models.pull?.('llama3.2:1b', { onProgress: record(progress) });
    expectWellFormed(progress, 7_000_000);
    expect(
      progress.some(
        (step) =>
          step.status === 'downloading' && step.total === 7_000_000 && step.completed > 6_000_000,
      ),
    ).toBe(true);
    // 900 ms without a line from the server: still told (every 250 ms).
    expect(
      progress.filter((step) => step.status === 'verifying sha256 digest').length,
    ).toBeGreaterThanOrEqual(2);
    expect(
      progress.find((step) => step.status === 'downloading' && step.bytesPerSecond !== undefined),
    ).toBeDefined();
    expect((await models.list()).map((model) => model.name)).toContain('llama3.2:1b');
  });

  it('Ollama: a connection dropped halfway is asked again and resumes where it was', async () => {
    const server = await start('ollama', {
      downloads: { 'llama3.2:1b': { dropAt: 0.5, verifyMs: 50 } },
    });
    const models = await localModels({ baseURL: server.url });
    const progress: PullProgress[] = [];
    await models.pull?.('llama3.2:1b', { onProgress: record(progress) });
    const state = server.downloads.get('llama3.2:1b');
    expect(state?.attempts).toBe(2);
    expect(state?.startedAt[1]).toBeGreaterThanOrEqual(0.5);
    expectWellFormed(progress, 7_000_000);
  });

  it('Ollama: an error halfway rejects with it; pulling again resumes', async () => {
    const server = await start('ollama', {
      downloads: {
        'llama3.2:1b': {
          errorAt: { fraction: 0.5, message: 'max retries exceeded: EOF' },
          verifyMs: 50,
        },
      },
    });
    const models = await localModels({ baseURL: server.url });
    const error: unknown = await models.pull?.('llama3.2:1b').catch((caught: unknown) => caught);
    expect(isAgentError(error, 'STREAM_ERROR') && error.message).toBe(
      'Ollama could not pull "llama3.2:1b": max retries exceeded: EOF',
    );
    const progress: PullProgress[] = [];
    await models.pull?.('llama3.2:1b', { onProgress: record(progress) });
    expect(server.downloads.get('llama3.2:1b')?.startedAt[1]).toBeGreaterThanOrEqual(0.5);
    expect(progress.find((step) => step.status === 'downloading')?.percent).toBeGreaterThanOrEqual(
      50,
    );
    expectWellFormed(progress, 7_000_000);
  });

  it('Ollama: cancelled by the user, it stops; the next pull resumes', async () => {
    const server = await start('ollama', { downloads: { 'llama3.2:1b': { verifyMs: 50 } } });
    const models = await localModels({ baseURL: server.url });
    const controller = new AbortController();
    const progress: PullProgress[] = [];
    const error: unknown = await models
      .pull?.('llama3.2:1b', {
        signal: controller.signal,
        onProgress: (step) => {
          progress.push(step);
          if (step.percent >= 30) controller.abort();
        },
      })
      .catch((caught: unknown) => caught);
    expect(isAgentError(error, 'EXECUTION_CANCELLED')).toBe(true);
    const state = server.downloads.get('llama3.2:1b');
    await new Promise((resolve) => setTimeout(resolve, 100)); // the server notices the closed connection
    const stoppedAt = state?.fraction ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(state?.fraction).toBe(stoppedAt); // it stopped downloading
    expect(stoppedAt).toBeLessThan(1);
    await models.pull?.('llama3.2:1b');
    expect(state?.startedAt[1]).toBe(stoppedAt);
  });

  it("Ollama: an unknown name rejects with the server's words", async () => {
    const server = await start('ollama');
    const models = await localModels({ baseURL: server.url });
    const error: unknown = await models.pull?.('no-such-model').catch((caught: unknown) => caught);
    expect(isAgentError(error, 'STREAM_ERROR') && error.message).toBe(
      'Ollama could not pull "no-such-model": pull model manifest: file does not exist',
    );
  });

  it('LM Studio v1: a download job, polled, with its speed', async () => {
    const server = await start('lmstudio-v1', { downloads: { 'qwen/qwen3-1.7b': {} } });
    const models = await localModels({ baseURL: server.url });
    const progress: PullProgress[] = [];
    await models.pull?.('qwen/qwen3-1.7b', { onProgress: record(progress) });
    expectWellFormed(progress, 7_000_000);
    expect(progress.some((step) => step.bytesPerSecond === 1_000_000)).toBe(true);
    expect(progress.at(-1)?.status).toBe('completed');
  });

  it('llama.cpp router: progress from /models/sse, summed over files; cancel sends /models/unload', async () => {
    const server = await start('llama.cpp-router', {
      downloads: { 'ggml-org/gemma-3-1b-it-GGUF': {} },
    });
    const models = await localModels({ baseURL: server.url });
    const controller = new AbortController();
    const error: unknown = await models
      .pull?.('ggml-org/gemma-3-1b-it-GGUF', {
        signal: controller.signal,
        onProgress: (step) => {
          if (step.percent >= 20) controller.abort();
        },
      })
      .catch((caught: unknown) => caught);
    expect(isAgentError(error, 'EXECUTION_CANCELLED')).toBe(true);
    expect(server.requests).toContain('POST /models/unload');
    const progress: PullProgress[] = [];
    await models.pull?.('ggml-org/gemma-3-1b-it-GGUF', { onProgress: record(progress) });
    expectWellFormed(progress, 7_000_000);
    expect(server.downloads.get('ggml-org/gemma-3-1b-it-GGUF')?.startedAt[1]).toBeGreaterThan(0);
  });
});
