import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { STREAM_DONE } from '../../src/types/chat-request.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../support/fake-openai-server.mjs';
import { chatRequest, collect } from './collect.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start() {
  server = await startFakeOpenAIServer({ models: ['m1', 'm2'] });
  return server;
}

function contents(chunks: unknown[], field: 'content' | 'reasoning_content'): string {
  return chunks
    .map(
      (chunk) =>
        (chunk as { choices?: { delta?: Record<string, unknown> }[] }).choices?.[0]?.delta?.[field],
    )
    .filter((value): value is string => typeof value === 'string')
    .join('');
}

describe('fake OpenAI server', () => {
  it('streams a scripted text turn through the real transport and records the request', async () => {
    const fake = await start();
    fake.enqueue({
      reasoning: 'Hmm, greet.',
      text: 'Hello there, friend',
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
    const backend = createFetchBackend({ baseURL: fake.url, apiKey: 'k' });
    const { chunks, error } = await collect(backend, chatRequest({ model: 'm1' }));
    expect(error).toBeUndefined();
    expect(contents(chunks, 'content')).toBe('Hello there, friend');
    expect(contents(chunks, 'reasoning_content')).toBe('Hmm, greet.');
    expect(chunks.at(-2)).toMatchObject({ choices: [], usage: { total_tokens: 7 } });
    expect(chunks.at(-1)).toBe(STREAM_DONE);
    expect(
      chunks.filter(
        (chunk) =>
          (chunk as { choices?: { finish_reason?: unknown }[] }).choices?.[0]?.finish_reason ===
          'stop',
      ),
    ).toHaveLength(1);
    expect(fake.requests).toEqual([chatRequest({ model: 'm1' })]);
    expect(fake.requestHeaders[0]?.authorization).toBe('Bearer k');
    expect(fake.errors).toEqual([]);
  });

  it('streams tool calls with ids, split arguments and finish_reason tool_calls', async () => {
    const fake = await start();
    fake.enqueue({
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris' }, id: 'call_1' },
        { name: 'noop' },
      ],
    });
    const { chunks } = await collect(createFetchBackend({ baseURL: fake.url }));
    const calls = chunks.flatMap(
      (chunk) =>
        (
          chunk as {
            choices?: {
              delta?: {
                tool_calls?: {
                  index: number;
                  id?: string;
                  function?: { name?: string; arguments?: string };
                }[];
              };
            }[];
          }
        ).choices?.[0]?.delta?.tool_calls ?? [],
    );
    expect(
      calls
        .filter((call) => call.index === 0)
        .map((call) => call.function?.arguments)
        .join(''),
    ).toBe('{"city":"Paris"}');
    expect(calls.filter((call) => call.index === 0).length).toBeGreaterThan(2);
    expect(calls.find((call) => call.index === 0)?.id).toBe('call_1');
    expect(calls.find((call) => call.index === 1)).toMatchObject({
      id: expect.any(String) as unknown,
      function: { name: 'noop', arguments: '' },
    });
    expect(chunks.at(-2)).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
  });

  it('answers scripted HTTP errors, raw bodies and whole JSON', async () => {
    const fake = await start();
    fake.enqueue(
      { status: 404, errorBody: '{"error":{"message":"model \\"x\\" not found"}}' },
      { raw: 'data: {"choices":[]}\n\nerror: {"message":"boom"}\n\n' },
      {
        json: {
          object: 'chat.completion',
          choices: [
            { index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' },
          ],
        },
      },
    );
    const backend = createFetchBackend({ baseURL: fake.url, maxRetries: 0 });
    expect((await collect(backend)).error).toMatchObject({
      code: 'HTTP_ERROR',
      status: 404,
      message: `HTTP 404 from ${fake.url}/chat/completions: model "x" not found`,
    });
    expect((await collect(backend)).error).toMatchObject({ code: 'STREAM_ERROR', message: 'boom' });
    expect(contents((await collect(backend)).chunks, 'content')).toBe('whole');
  });

  it('uses the responder when the queue is empty, and fails loudly when there is none', async () => {
    const fake = await start();
    const backend = createFetchBackend({ baseURL: fake.url, maxRetries: 0 });
    const unscripted = await collect(backend);
    expect(unscripted.error).toMatchObject({
      code: 'HTTP_ERROR',
      status: 500,
      message: expect.stringContaining('unscripted request #1') as unknown,
    });
    expect(fake.errors).toHaveLength(1);
    fake.onRequest(() => ({ text: 'dynamic' }));
    expect(contents((await collect(backend)).chunks, 'content')).toBe('dynamic');
  });

  it('sees the connection close when the consumer breaks (the transport cancels the body)', async () => {
    const fake = await start();
    fake.enqueue({ text: 'one two three', finishReason: null, done: false, hang: true });
    const backend = createFetchBackend({ baseURL: fake.url });
    for await (const chunk of await backend.chat.completions.create(chatRequest())) {
      if (contents([chunk], 'content') === 'one ') break;
    }
    await expect.poll(() => fake.disconnects).toBe(1);
  });

  it('sees the connection close on abort mid-stream', async () => {
    const fake = await start();
    fake.enqueue({ text: 'one two three', finishReason: null, done: false, hang: true });
    const controller = new AbortController();
    const backend = createFetchBackend({ baseURL: fake.url });
    let thrown: unknown;
    try {
      for await (const chunk of await backend.chat.completions.create(chatRequest(), {
        signal: controller.signal,
      })) {
        if (contents([chunk], 'content') === 'three') controller.abort();
      }
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'EXECUTION_CANCELLED' });
    await expect.poll(() => fake.disconnects).toBe(1);
  });

  it('serves /v1/models, /health and CORS preflight', async () => {
    const fake = await start();
    const models = (await (await fetch(`${fake.url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((model) => model.id)).toEqual(['m1', 'm2']);
    expect((await fetch(`${fake.origin}/health`)).status).toBe(200);
    const preflight = await fetch(`${fake.url}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('runs as a CLI with an HTTP control API', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(
      process.execPath,
      ['test/support/fake-openai-server.mjs', '--port', String(port)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on(
          'data',
          (data: Buffer) => data.toString().includes('listening') && resolve(),
        );
        child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      const origin = `http://127.0.0.1:${port}`;
      await fetch(`${origin}/__control/enqueue`, {
        method: 'POST',
        body: JSON.stringify({ text: 'from control' }),
      });
      const { chunks } = await collect(createFetchBackend({ baseURL: `${origin}/v1` }));
      expect(contents(chunks, 'content')).toBe('from control');
      const log = (await (await fetch(`${origin}/__control/requests`)).json()) as {
        requests: unknown[];
        errors: string[];
      };
      expect(log.requests).toHaveLength(1);
      expect(log.errors).toEqual([]);
      await fetch(`${origin}/__control/reset`, { method: 'POST' });
      expect(
        ((await (await fetch(`${origin}/__control/requests`)).json()) as { requests: unknown[] })
          .requests,
      ).toEqual([]);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
