import { describe, expect, it } from 'vitest';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { toOllamaRequest } from '../../src/backend/ollama-request.js';
import { STREAM_DONE } from '../../src/types/chat-request.js';
import { bytesResponse, fakeFetch, jsonResponse, ndjsonResponse } from '../support/fake-fetch.js';
import { z } from 'zod';
import { query } from '../../src/loop/query.js';
import { tool } from '../../src/tools/tool.js';
import { collect as collectEvents } from '../support/collect.js';
import { chatRequest, collect } from './collect.js';

const weather = tool({
  name: 'get_weather',
  description: 'Weather',
  input: z.object({ city: z.string() }),
});
const time = tool({ name: 'get_time', description: 'Time', input: z.object({ zone: z.string() }) });
const noop = tool({ name: 'noop', description: 'Nothing', input: z.object({}) });

const line = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  model: 'qwen3',
  created_at: '2025-01-01T00:00:10Z',
  message: { role: 'assistant', content: '', ...message },
  done: false,
  ...extra,
});
const doneLine = line(
  {},
  { done: true, done_reason: 'stop', prompt_eval_count: 26, eval_count: 290, total_duration: 1 },
);
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  object: 'chat.completion.chunk',
  model: 'qwen3',
  created: 1735689610,
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function ollama(response: Response | Error) {
  const fake = fakeFetch([response]);
  const backend = createFetchBackend({
    baseURL: 'http://localhost:11434/',
    api: 'ollama',
    fetch: fake.fetch,
    maxRetries: 0,
  });
  return { fake, backend };
}

describe('ollama: request translation', () => {
  it('translates messages, tools, options and think into an /api/chat body', () => {
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } },
      },
    ];
    const body = toOllamaRequest(
      chatRequest({
        messages: [
          { role: 'system', content: 'Be brief' },
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', name: 'get_weather', content: '{"temp":21}' },
          { role: 'tool', tool_call_id: 'call_1', content: 'no name given' },
        ],
        tools,
        tool_choice: 'auto',
        parallel_tool_calls: true,
        temperature: 0.3,
        max_tokens: 512,
        top_p: 0.9,
        options: { num_ctx: 8192, temperature: 0.1 },
        think: true,
        keep_alive: '5m',
      }),
    );
    expect(body).toEqual({
      model: 'test-model',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }],
        },
        { role: 'tool', content: '{"temp":21}', tool_name: 'get_weather' },
        { role: 'tool', content: 'no name given', tool_name: 'get_weather' },
      ],
      tools,
      options: { temperature: 0.1, num_predict: 512, top_p: 0.9, num_ctx: 8192 },
      think: true,
      keep_alive: '5m',
    });
  });

  it('sends garbled tool arguments as {} and drops tools for tool_choice "none"', () => {
    const body = toOllamaRequest(
      chatRequest({
        messages: [
          {
            role: 'assistant',
            content: 'x',
            tool_calls: [
              { id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } },
            ],
          },
        ],
        tools: [{ type: 'function', function: { name: 'f', description: '', parameters: {} } }],
        tool_choice: 'none',
      }),
    );
    expect(body.messages).toEqual([
      { role: 'assistant', content: 'x', tool_calls: [{ function: { name: 'f', arguments: {} } }] },
    ]);
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('options');
  });

  it('POSTs to {baseURL}/api/chat (also from an OpenAI-style /v1 baseURL)', async () => {
    for (const baseURL of ['http://localhost:11434', 'http://localhost:11434/v1/']) {
      const fake = fakeFetch([ndjsonResponse([doneLine])]);
      await collect(createFetchBackend({ baseURL, api: 'ollama', fetch: fake.fetch }));
      expect(fake.requests[0]?.url).toBe('http://localhost:11434/api/chat');
      expect(fake.requests[0]?.body).toMatchObject({ model: 'test-model', stream: true });
      expect(fake.requests[0]?.body).not.toHaveProperty('stream_options');
    }
  });
});

describe('ollama: NDJSON response translation', () => {
  it('translates content, thinking, tool calls, done_reason and usage, then STREAM_DONE', async () => {
    const lines = [
      line({ thinking: 'Let me think' }),
      line({ content: 'Héllo 🌍' }),
      line({ tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] }),
      line({
        tool_calls: [
          { function: { name: 'get_time', arguments: {} } },
          { function: { name: 'noop', arguments: { n: 1 } } },
        ],
      }),
      doneLine,
    ];
    const text = lines.map((value) => JSON.stringify(value)).join('\r\n') + '\r\n';
    const { backend } = ollama(bytesResponse(text, { splitEvery: 7 }));
    const { chunks, error } = await collect(backend);
    expect(error).toBeUndefined();
    expect(chunks).toEqual([
      chunk({ role: 'assistant', reasoning: 'Let me think' }),
      chunk({ role: 'assistant', content: 'Héllo 🌍' }),
      chunk({
        role: 'assistant',
        tool_calls: [
          {
            index: 0,
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      }),
      chunk({
        role: 'assistant',
        tool_calls: [
          { index: 1, type: 'function', function: { name: 'get_time', arguments: '{}' } },
          { index: 2, type: 'function', function: { name: 'noop', arguments: '{"n":1}' } },
        ],
      }),
      chunk({}, 'stop'),
      {
        object: 'chat.completion.chunk',
        model: 'qwen3',
        created: 1735689610,
        choices: [],
        usage: { prompt_tokens: 26, completion_tokens: 290, total_tokens: 316 },
      },
      STREAM_DONE,
    ]);
  });

  it('keeps the call ids Ollama sends since 0.12.10 (with function.index), synthesises only missing ones', async () => {
    const lines = [
      line({
        tool_calls: [
          {
            id: 'call_x7rmf2qa',
            function: { index: 0, name: 'get_weather', arguments: { city: 'Paris' } },
          },
          {
            id: 'call_9bq3kd0s',
            function: { index: 1, name: 'get_time', arguments: { zone: 'CET' } },
          },
        ],
      }),
      line({ tool_calls: [{ function: { name: 'noop', arguments: {} } }] }),
      doneLine,
    ];
    const { backend } = ollama(ndjsonResponse(lines));

    const events = await collectEvents(
      query('Weather and time in Paris?', {
        model: 'qwen3',
        backend,
        tools: [weather, time, noop],
      }),
    );

    const uses = events.flatMap((event) => (event.type === 'tool_use' ? [event] : []));
    expect(uses.map((use) => [use.name, use.id])).toEqual([
      ['get_weather', 'call_x7rmf2qa'],
      ['get_time', 'call_9bq3kd0s'],
      ['noop', expect.stringMatching(/^[a-zA-Z0-9]{9}$/)],
    ]);
    expect(uses[0]?.input).toEqual({ city: 'Paris' });
  });

  it('maps done_reason "length"', async () => {
    const { backend } = ollama(
      ndjsonResponse([line({ content: 'a' }), { ...doneLine, done_reason: 'length' }]),
    );
    const { chunks } = await collect(backend);
    expect(chunks[1]).toEqual(chunk({}, 'length'));
  });

  it('throws STREAM_ERROR for an error line, after the chunks before it', async () => {
    const { backend } = ollama(
      ndjsonResponse([
        line({ content: 'a' }),
        { error: 'an error was encountered while running the model: unexpected EOF' },
      ]),
    );
    const { chunks, error } = await collect(backend);
    expect(chunks).toEqual([chunk({ role: 'assistant', content: 'a' })]);
    expect(error).toMatchObject({
      code: 'STREAM_ERROR',
      message: 'an error was encountered while running the model: unexpected EOF',
    });
  });

  it('ends without STREAM_DONE when the body ends before done, dropping a cut-off last line', async () => {
    const text = `${JSON.stringify(line({ content: 'a' }))}\n{"model":"qwen3","mess`;
    const { backend } = ollama(bytesResponse(text));
    const { chunks, error } = await collect(backend);
    expect(error).toBeUndefined();
    expect(chunks).toEqual([chunk({ role: 'assistant', content: 'a' })]);
  });

  it('throws INVALID_RESPONSE for an HTML page and for unrelated JSON', async () => {
    const html = await collect(
      ollama(bytesResponse('<html><body>Ollama is running</body></html>')).backend,
    );
    expect(html.error).toMatchObject({
      code: 'INVALID_RESPONSE',
      message: expect.stringContaining('<html><body>Ollama is running') as unknown,
    });
    const unrelated = await collect(ollama(jsonResponse({ models: [] })).backend);
    expect(unrelated.error).toMatchObject({
      code: 'INVALID_RESPONSE',
      message: expect.stringContaining('{"models":[]}') as unknown,
    });
  });

  it('reports Ollama HTTP errors with its message', async () => {
    const { backend } = ollama(jsonResponse({ error: "model 'nope' not found" }, { status: 404 }));
    const { error } = await collect(backend);
    expect(error).toMatchObject({
      code: 'HTTP_ERROR',
      status: 404,
      message: "HTTP 404 from http://localhost:11434/api/chat: model 'nope' not found",
    });
  });
});
