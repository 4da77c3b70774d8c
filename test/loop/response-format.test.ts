import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { webLLMBackend } from '../../src/backend/engines/web-llm-backend.js';
import { isAgentError, type AgentError } from '../../src/errors/agent-error.js';
import { Client } from '../../src/loop/client.js';
import { query } from '../../src/loop/query.js';
import type { AgentEvent, Done } from '../../src/types/events.js';
import { collect, types } from '../support/collect.js';
import { fakeFetch, ndjsonResponse, sseBody, sseResponse } from '../support/fake-fetch.js';
import { fakeWebLLMEngine } from '../support/fake-web-llm-engine.js';
import { add } from './fixtures.js';

const city = z.object({ city: z.string(), population: z.number().int() });
const cityJsonSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer' } },
  required: ['city', 'population'],
  additionalProperties: false,
};
const sentSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    population: { type: 'integer' },
  },
  required: ['city', 'population'],
};

const delta = (value: Record<string, unknown>, finish: string | null = null) => ({
  id: 'x',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: value, finish_reason: finish }],
});
/** An answer streamed as the given text pieces, then `finish`. */
const answer = (pieces: string[], finish = 'stop') =>
  sseBody([...pieces.map((content) => delta({ content })), delta({}, finish)]);
const callAdd = sseBody([
  delta({
    tool_calls: [{ index: 0, id: 'call_1', function: { name: 'add', arguments: '{"a":2,"b":3}' } }],
  }),
  delta({}, 'tool_calls'),
]);
// A known window: the scripts hold no probe of the server's context window.
const openai = {
  model: 'qwen3',
  baseURL: 'http://localhost:8080/v1',
  maxRetries: 0,
  contextWindow: 32_768,
};

function doneOf(events: AgentEvent[]): Done {
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('no done event');
  return done;
}

async function failure(run: AsyncIterable<AgentEvent>): Promise<AgentError> {
  try {
    await collect(run);
  } catch (error) {
    if (isAgentError(error)) return error;
    throw error;
  }
  throw new Error('the run did not fail');
}

describe('responseFormat: the request each server receives', () => {
  it('OpenAI-compatible servers (llama.cpp, vLLM, LM Studio, Ollama /v1): response_format json_schema, strict, no $schema', async () => {
    const fake = fakeFetch([sseResponse(answer(['{"city":"Oslo","population":709000}']))]);
    await collect(
      query('Largest city of Norway?', {
        ...openai,
        fetch: fake.fetch,
        responseFormat: { schema: city, name: 'city' },
      }),
    );
    const body = fake.requests[0]?.body as Record<string, unknown>;
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'city', schema: sentSchema, strict: true },
    });
    expect(JSON.stringify(body)).not.toContain('$schema');
  });

  it('Ollama native /api/chat: the JSON Schema itself as `format`, no response_format', async () => {
    const fake = fakeFetch([
      ndjsonResponse([
        { model: 'qwen3', message: { role: 'assistant', content: '{"city":"Oslo",' }, done: false },
        {
          model: 'qwen3',
          message: { role: 'assistant', content: '"population":709000}' },
          done: false,
        },
        {
          model: 'qwen3',
          message: { role: 'assistant', content: '' },
          done: true,
          done_reason: 'stop',
        },
      ]),
    ]);
    const events = await collect(
      query('Largest city of Norway?', {
        model: 'qwen3',
        baseURL: 'http://localhost:11434',
        api: 'ollama',
        fetch: fake.fetch,
        contextWindow: 32_768,
        responseFormat: { schema: cityJsonSchema },
      }),
    );
    const body = fake.requests[0]?.body as Record<string, unknown>;
    expect(fake.requests[0]?.url).toBe('http://localhost:11434/api/chat');
    expect(body.format).toEqual(cityJsonSchema);
    expect(body).not.toHaveProperty('response_format');
    expect(doneOf(events).output).toEqual({ city: 'Oslo', population: 709000 });
  });

  it('WebLLM: json_object with the schema as JSON text, accepted by its own request checks', async () => {
    const qwen = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
    const engine = fakeWebLLMEngine(qwen, [['{"city": "Oslo", ', '"population": 709000}']]);
    const events = await collect(
      query('Largest city of Norway?', {
        model: qwen,
        backend: webLLMBackend(engine),
        responseFormat: { schema: cityJsonSchema },
      }),
    );
    expect(engine.requests[0]?.response_format).toEqual({
      type: 'json_object',
      schema: JSON.stringify(cityJsonSchema),
    });
    expect(doneOf(events).output).toEqual({ city: 'Oslo', population: 709000 });
  });

  it('WebLLM with tools: no format beside the tools (WebLLM refuses it), the format on the answer after the results', async () => {
    const hermes = 'Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC';
    const engine = fakeWebLLMEngine(hermes, [
      ['[{"name": "add", "arguments": {"a": 2, "b": 3}}]'],
      ['{"sum": 5}'],
    ]);
    const client = new Client({
      model: hermes,
      backend: webLLMBackend(engine),
      tools: [add],
      autoExecuteTools: true,
      responseFormat: { schema: z.object({ sum: z.number() }) },
    });
    const events = await collect(client.run('2 + 3?'));
    expect(engine.requests[0]?.response_format).toMatchObject({ type: 'json_object' });
    expect(engine.requests[0]?.tools).toBeDefined();
    expect(engine.requests[1]?.tools).toBeUndefined();
    expect(engine.requests[1]?.response_format).toMatchObject({
      type: 'json_object',
      schema: expect.stringContaining('"sum"') as unknown,
    });
    expect(doneOf(events).output).toEqual({ sum: 5 });
  });

  it('with tools: the call that offers them goes without the format; the call after the results carries it, without tools', async () => {
    const fake = fakeFetch([sseResponse(callAdd), sseResponse(answer(['{"sum":', '5}']))]);
    const client = new Client({
      ...openai,
      fetch: fake.fetch,
      tools: [add],
      autoExecuteTools: true,
      responseFormat: { schema: z.object({ sum: z.number() }) },
    });
    const events = await collect(client.run('2 + 3?'));
    const [first, second] = fake.requests.map((request) => request.body as Record<string, unknown>);
    expect(first).toHaveProperty('tools');
    expect(first).not.toHaveProperty('response_format');
    expect(second).not.toHaveProperty('tools');
    expect(second?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'response' },
    });
    expect(types(events)).toEqual([
      'tool_use',
      'step_end',
      'tool_result',
      'text',
      'step_end',
      'done',
    ]);
    expect(doneOf(events).output).toEqual({ sum: 5 });
  });

  it("toolChoice 'none': the tools are not offered, so the format goes on that call", async () => {
    const fake = fakeFetch([sseResponse(answer(['{"sum":5}']))]);
    await collect(
      query('2 + 3?', {
        ...openai,
        fetch: fake.fetch,
        tools: [add],
        toolChoice: 'none',
        responseFormat: { schema: z.object({ sum: z.number() }) },
      }),
    );
    expect(fake.requests[0]?.body).toHaveProperty('response_format');
  });
});

describe('responseFormat: reading the answer', () => {
  it('parses and validates a streamed answer split at awkward points (mid-line, mid-UTF-8, mid-escape)', async () => {
    const text = '{"city":"Tromsø \\"Paris of the North\\"","population":77000}';
    const body = answer([text.slice(0, 14), text.slice(14, 22), text.slice(22)]);
    for (const splitEvery of [1, 3, 7, 50]) {
      const fake = fakeFetch([sseResponse(body, { splitEvery })]);
      const events = await collect(
        query('A city?', { ...openai, fetch: fake.fetch, responseFormat: { schema: city } }),
      );
      expect(doneOf(events).output).toEqual({
        city: 'Tromsø "Paris of the North"',
        population: 77000,
      });
      expect(
        events
          .filter((event) => event.type === 'text')
          .map((event) => (event as { text: string }).text)
          .join(''),
      ).toBe(text);
    }
  });

  it("the output is the schema's parsed value (zod transforms apply)", async () => {
    const fake = fakeFetch([sseResponse(answer(['{"city":"oslo"}']))]);
    const upper = z.object({ city: z.string().transform((name) => name.toUpperCase()) });
    const events = await collect(
      query('A city?', { ...openai, fetch: fake.fetch, responseFormat: { schema: upper } }),
    );
    expect(doneOf(events).output).toEqual({ city: 'OSLO' });
  });

  it('reads JSON in a Markdown code fence (a server that ignored the format)', async () => {
    const fake = fakeFetch([sseResponse(answer(['```json\n{"city":"Oslo","population":1}\n```']))]);
    const events = await collect(
      query('A city?', { ...openai, fetch: fake.fetch, responseFormat: { schema: city } }),
    );
    expect(doneOf(events).output).toEqual({ city: 'Oslo', population: 1 });
  });

  it('no output without responseFormat', async () => {
    const fake = fakeFetch([sseResponse(answer(['{"city":"Oslo"}']))]);
    const events = await collect(query('A city?', { ...openai, fetch: fake.fetch }));
    expect(doneOf(events)).not.toHaveProperty('output');
    expect(fake.requests[0]?.body).not.toHaveProperty('response_format');
  });

  it('invalid JSON → VALIDATION_FAILED with the raw text kept (context and history), saying the server may ignore the format', async () => {
    const fake = fakeFetch([sseResponse(answer(['Oslo, with about ', '709000 people.']))]);
    const client = new Client({ ...openai, fetch: fake.fetch, responseFormat: { schema: city } });
    const error = await failure(client.run('A city?'));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(/not JSON/);
    expect(error.message).toMatch(/ignores response_format/);
    expect(error.context).toMatchObject({
      text: 'Oslo, with about 709000 people.',
      finishReason: 'stop',
    });
    expect(client.history.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Oslo, with about 709000 people.',
    });
    expect(client.usage.totalTokens).toBeGreaterThan(0);
    expect(client.status).toBe('idle');
  });

  it('a value the schema rejects → VALIDATION_FAILED naming the path (zod and JSON Schema alike)', async () => {
    for (const schema of [city, cityJsonSchema]) {
      const fake = fakeFetch([sseResponse(answer(['{"city":"Oslo","population":"many"}']))]);
      const error = await failure(
        query('A city?', {
          ...openai,
          fetch: fake.fetch,
          responseFormat: { schema, name: 'city' },
        }),
      );
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message).toMatch(/does not match the "city" schema: population: /);
      expect(error.context?.text).toBe('{"city":"Oslo","population":"many"}');
    }
  });

  it('an answer cut off at maxTokens says so', async () => {
    const fake = fakeFetch([sseResponse(answer(['{"city":"Os'], 'length'))]);
    const error = await failure(
      query('A city?', { ...openai, fetch: fake.fetch, responseFormat: { schema: city } }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(/cut off at maxTokens/);
  });

  it('a zod/mini-like schema with no JSON Schema is a TypeError before any request', async () => {
    const fake = fakeFetch([]);
    const schema = {
      '~standard': {
        version: 1 as const,
        vendor: 'zod-mini',
        validate: (value: unknown) => ({ value }),
      },
    };
    await expect(
      collect(query('A city?', { ...openai, fetch: fake.fetch, responseFormat: { schema } })),
    ).rejects.toThrow(/cannot render JSON Schema/);
    expect(fake.requests).toHaveLength(0);
  });
});
