import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/loop/client.js';
import type { AgentError } from '../../src/errors/agent-error.js';
import { collect } from '../support/collect.js';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeModelServerKind,
} from '../support/fake-model-servers.js';

// Issue 25: a 404 for a model the server does not have says which models it has, on the
// lines <agent-chat> shows unfolded (the fix), not only the server's own text.
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failure(client: Client): Promise<AgentError> {
  return (await collect(client.run('Hi')).catch((error: unknown) => error)) as AgentError;
}

describe.each<FakeModelServerKind>(['ollama', 'lmstudio-v1', 'vllm'])('%s', (kind) => {
  it('names the models the server has when the model is unknown', async () => {
    server = await startFakeModelServer({ kind });
    const client = new Client({ model: 'qwen3:8b', baseURL: `${server.url}/v1` });
    const error = await failure(client);
    expect(error).toMatchObject({ code: 'HTTP_ERROR', status: 404 });
    const [first, ...rest] = error.message.split('\n');
    expect(first).toMatch(/^HTTP 404 from /);
    expect(rest.join('\n')).toMatch(/qwen3:4b, gemma3:4b/);
    expect(error.context?.fix).toMatch(/qwen3:4b, gemma3:4b/);
    expect(server.chats).toHaveLength(1);
  });
});

it('asks Ollama for its tags when the native API is used', async () => {
  server = await startFakeModelServer({ kind: 'ollama' });
  const requests: string[] = [];
  const client = new Client({
    model: 'qwen3:8b',
    baseURL: server.url,
    api: 'ollama',
    fetch: (input, init) => {
      requests.push(`${init?.method ?? 'GET'} ${new URL(inputURL(input)).pathname}`);
      // The fake speaks only /v1 chat: a native chat is answered as Ollama does for an unknown model.
      if (inputURL(input).endsWith('/api/chat'))
        return Promise.resolve(
          Response.json(
            { error: 'model "qwen3:8b" not found, try pulling it first' },
            { status: 404 },
          ),
        );
      return globalThis.fetch(input, init);
    },
  });
  const error = await failure(client);
  expect(error.context?.fix).toMatch(/qwen3:4b, gemma3:4b/);
  expect(error.context?.fix).toMatch(/ollama pull qwen3:8b/);
  expect(requests).toContain('GET /api/tags');
});

it('leaves a 404 alone when the server has the model (a wrong path, not a wrong name)', async () => {
  server = await startFakeModelServer({ kind: 'ollama' });
  const client = new Client({
    model: 'qwen3:4b',
    baseURL: `${server.url}/v1`,
    fetch: (input, init) =>
      inputURL(input).endsWith('/chat/completions')
        ? Promise.resolve(new Response('404 page not found', { status: 404 }))
        : globalThis.fetch(input, init),
  });
  const error = await failure(client);
  expect(error.message).toBe(`HTTP 404 from ${server.url}/v1/chat/completions: 404 page not found`);
});

function inputURL(input: RequestInfo | URL): string {
  return input instanceof Request ? input.url : input.toString();
}
