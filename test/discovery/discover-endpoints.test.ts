import { describe, expect, test } from 'vitest';
import { discoverEndpoints, normalizeBaseURL } from '../../src/discovery/index.js';

type Answer = Response | Error | 'hang';

/** A fetch that answers by URL (and `no-cors` mode), recording every call. */
function routes(table: Record<string, { cors?: Answer; opaque?: Answer }>) {
  const calls: { url: string; mode: RequestMode | undefined }[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : input.toString();
    calls.push({ url, mode: init?.mode });
    const route = table[url];
    const answer = init?.mode === 'no-cors' ? route?.opaque : route?.cors;
    if (answer === 'hang') {
      return new Promise((_, reject) =>
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('aborted', 'TimeoutError')),
        ),
      );
    }
    if (answer instanceof Response) return Promise.resolve(answer.clone());
    return Promise.reject(answer ?? new TypeError('Failed to fetch'));
  };
  return { fetch, calls };
}

const models = (...ids: string[]) =>
  Response.json({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) });
const PAGE = 'http://localhost:5173';

describe('discoverEndpoints', () => {
  test('probes the four local servers in parallel and reports each', async () => {
    const fake = routes({
      'http://localhost:11434/v1/models': { cors: models('qwen3:4b', 'llama3.2') },
      'http://localhost:1234/v1/models': { cors: models() },
      'http://localhost:8080/v1/models': { opaque: new Response(null, { status: 200 }) },
    });

    const found = await discoverEndpoints({ fetch: fake.fetch, pageOrigin: PAGE });

    expect(found.map(({ name, status, models: ids }) => ({ name, status, models: ids }))).toEqual([
      { name: 'Ollama', status: 'ready', models: ['qwen3:4b', 'llama3.2'] },
      { name: 'LM Studio', status: 'no-models', models: [] },
      { name: 'llama.cpp', status: 'cors', models: [] },
      { name: 'vLLM', status: 'unreachable', models: [] },
    ]);
    expect(found[0]?.baseURL).toBe('http://localhost:11434/v1');
    expect(found[1]?.fix).toContain('lms load');
    expect(found[2]?.fix).toContain('llama.cpp');
    expect(found[3]?.fix).toBeUndefined();
    // The no-cors second probe runs only for the failed ones.
    expect(fake.calls.filter((call) => call.mode === 'no-cors').map((call) => call.url)).toEqual([
      'http://localhost:8080/v1/models',
      'http://localhost:8000/v1/models',
    ]);
  });

  test('a CORS-blocked Ollama gets the OLLAMA_ORIGINS fix for this page', async () => {
    const fake = routes({ 'http://localhost:11434/v1/models': { opaque: new Response(null) } });

    const [ollama] = await discoverEndpoints({
      fetch: fake.fetch,
      pageOrigin: PAGE,
      candidates: [{ name: 'Ollama', baseURL: 'http://localhost:11434/v1' }],
    });

    expect(ollama?.status).toBe('cors');
    expect(ollama?.fix).toContain(`OLLAMA_ORIGINS=${PAGE}`);
  });

  test('outside a page (no CORS) a failure is unreachable, with no second probe', async () => {
    const fake = routes({});

    const found = await discoverEndpoints({
      fetch: fake.fetch,
      candidates: [{ name: 'vLLM', baseURL: 'http://localhost:8000/v1' }],
    });

    expect(found[0]).toMatchObject({
      status: 'unreachable',
      message: expect.stringContaining('Nothing answered') as unknown,
    });
    expect(fake.calls).toHaveLength(1);
  });

  test('a server that does not answer in time is unreachable after timeoutMs', async () => {
    const fake = routes({ 'http://localhost:8000/v1/models': { cors: 'hang', opaque: 'hang' } });

    const found = await discoverEndpoints({
      fetch: fake.fetch,
      timeoutMs: 20,
      candidates: [{ name: 'vLLM', baseURL: 'http://localhost:8000/v1' }],
    });

    expect(found[0]).toMatchObject({
      status: 'unreachable',
      message: 'No answer from http://localhost:8000/v1 within 20 ms',
    });
  });

  test('answers that are not a model list are errors saying so', async () => {
    const fake = routes({
      'http://a.test/v1/models': { cors: new Response('not found', { status: 404 }) },
      'http://b.test/v1/models': { cors: new Response('<html>', { status: 200 }) },
      'http://c.test/v1/models': { cors: Response.json({ models: [] }) },
    });

    const found = await discoverEndpoints({
      fetch: fake.fetch,
      candidates: [],
      urls: ['http://a.test', 'http://b.test/v1/', 'http://c.test'],
    });

    expect(found.map((endpoint) => [endpoint.name, endpoint.status])).toEqual([
      ['Custom', 'error'],
      ['Custom', 'error'],
      ['Custom', 'error'],
    ]);
    expect(found[0]?.message).toContain('HTTP 404');
    expect(found[1]?.message).toContain('not with JSON');
    expect(found[2]?.message).toContain('not with an OpenAI model list');
  });

  test('custom URLs are normalised, named by port and not probed twice', async () => {
    const fake = routes({ 'http://192.168.1.20:11434/v1/models': { cors: models('m') } });

    const found = await discoverEndpoints({
      fetch: fake.fetch,
      pageOrigin: PAGE,
      candidates: [],
      urls: ['http://192.168.1.20:11434', 'http://192.168.1.20:11434/v1/'],
    });

    expect(found).toEqual([
      {
        name: 'Ollama',
        baseURL: 'http://192.168.1.20:11434/v1',
        status: 'ready',
        models: ['m'],
        message: 'Ollama at http://192.168.1.20:11434/v1: 1 model',
      },
    ]);
  });

  test('rejects a URL that is not http(s), and cancels with the signal', async () => {
    await expect(
      discoverEndpoints({ fetch: routes({}).fetch, urls: ['ftp://x'] }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const controller = new AbortController();
    const pending = discoverEndpoints({
      fetch: routes({ 'http://localhost:11434/v1/models': { cors: 'hang' } }).fetch,
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
  });
});

test('normalizeBaseURL', () => {
  expect(normalizeBaseURL('http://localhost:11434')).toBe('http://localhost:11434/v1');
  expect(normalizeBaseURL(' http://localhost:1234/v1/ ')).toBe('http://localhost:1234/v1');
  expect(normalizeBaseURL('http://host/api/v1')).toBe('http://host/api/v1');
  expect(normalizeBaseURL('localhost:11434')).toBeUndefined();
});
