import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/loop/client.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../support/fake-openai-server.mjs';
import { collect } from '../support/collect.js';

// The user's server settings (an Ollama Modelfile's PARAMETER, llama-server's --temp and
// samplers, LM Studio's per-model presets) apply unless the app sets a field: the bodies the
// fake receives carry no sampling field the app did not ask for.
let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterAll(async () => {
  await server.close();
});

const SAMPLING = [
  'temperature',
  'max_tokens',
  'max_completion_tokens',
  'top_p',
  'top_k',
  'min_p',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'repeat_penalty',
];

async function bodyOf(options: Partial<ConstructorParameters<typeof Client>[0]>) {
  server.reset();
  server.enqueue({ text: 'Hi' });
  const client = new Client({ model: 'fake-model', baseURL: server.url, ...options });
  await collect(client.run('Hello'));
  expect(server.errors).toEqual([]);
  const body = server.requests.at(-1);
  if (typeof body !== 'object' || body === null) throw new Error('no chat request');
  return body as Record<string, unknown>;
}

describe('defer to the server: sampling only when the app set it', () => {
  it('sends no sampling field by default, with a known window', async () => {
    const body = await bodyOf({ contextWindow: 32_768 });
    for (const field of SAMPLING) expect(body, field).not.toHaveProperty(field);
  });

  it("sends no sampling field by default with contextWindow 'auto' (room for the answer is kept, not sent)", async () => {
    const body = await bodyOf({});
    for (const field of SAMPLING) expect(body, field).not.toHaveProperty(field);
  });

  it('sends temperature and maxTokens exactly as set', async () => {
    const body = await bodyOf({ contextWindow: 32_768, temperature: 0.2, maxTokens: 300 });
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBe(300);
  });

  it('lets requestExtras set a field and win over the option, and remove one with undefined', async () => {
    const body = await bodyOf({
      contextWindow: 32_768,
      temperature: 0.2,
      maxTokens: 300,
      requestExtras: {
        temperature: 0.9,
        max_tokens: undefined,
        top_p: 0.8,
        stream_options: undefined,
      },
    });
    expect(body.temperature).toBe(0.9);
    expect(body.top_p).toBe(0.8);
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('stream_options');
    expect(body.stream).toBe(true);
  });

  it("sends Ollama's native API no options the app did not set (num_ctx is the window the app fits to)", async () => {
    server.reset();
    server.enqueue({ text: 'Hi' });
    const client = new Client({
      model: 'fake-model',
      baseURL: server.origin,
      api: 'ollama',
      contextWindow: 8192,
    });
    await collect(client.run('Hello'));
    const body = server.requests.at(-1) as Record<string, unknown>;
    const options = (body.options ?? {}) as Record<string, unknown>;
    expect(Object.keys(options).filter((key) => key !== 'num_ctx')).toEqual([]);
  });

  it("sends Ollama's native API the sampling the app set, as options", async () => {
    server.reset();
    server.enqueue({ text: 'Hi' });
    const client = new Client({
      model: 'fake-model',
      baseURL: server.origin,
      api: 'ollama',
      contextWindow: 8192,
      temperature: 0.3,
      maxTokens: 200,
    });
    await collect(client.run('Hello'));
    const body = server.requests.at(-1) as Record<string, unknown>;
    expect(body.options).toMatchObject({ temperature: 0.3, num_predict: 200 });
  });
});
