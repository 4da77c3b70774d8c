import { describe, expect, it } from 'vitest';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { isAgentError } from '../../src/errors/agent-error.js';
import { STREAM_DONE } from '../../src/types/chat-request.js';
import {
  bytesResponse,
  fakeFetch,
  jsonResponse,
  sseBody,
  sseResponse,
} from '../support/fake-fetch.js';
import { collect } from './collect.js';

const URL_V1 = 'http://localhost:8080/v1';
const chunk = (content: string) => ({
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

async function run(response: Response) {
  const fake = fakeFetch([response]);
  return collect(createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch, maxRetries: 0 }));
}

function expectAgentError(error: unknown, code: string, message: string | RegExp) {
  expect(isAgentError(error)).toBe(true);
  expect(error).toMatchObject({ code });
  if (typeof message === 'string') expect((error as Error).message).toBe(message);
  else expect((error as Error).message).toMatch(message);
}

describe('fetch backend: errors inside a 200 stream', () => {
  const cases: [string, string, string][] = [
    [
      'data: {"error": {message}}',
      'data: {"error":{"message":"context length exceeded","type":"server_error"}}\n\n',
      'context length exceeded',
    ],
    ['data: {"error": "..."}', 'data: {"error":"model crashed"}\n\n', 'model crashed'],
    [
      'data: {"error": …} then [DONE]',
      'data: {"error":{"message":"oom"}}\n\ndata: [DONE]\n\n',
      'oom',
    ],
    [
      'vLLM data: {"object":"error"}',
      'data: {"object":"error","message":"vllm failed","type":"BadRequestError","code":400}\n\n',
      'vllm failed',
    ],
    [
      'event: error with JSON data',
      'event: error\ndata: {"message":"upstream reset"}\n\n',
      'upstream reset',
    ],
    ['event: error with text data', 'event: error\ndata: worker died\n\n', 'worker died'],
    [
      'llama.cpp legacy error: field line',
      'error: {"code":500,"message":"slot unavailable","type":"server_error"}\n\n',
      'slot unavailable',
    ],
  ];

  for (const [name, errorFrame, message] of cases) {
    it(`throws STREAM_ERROR with the server's message after the chunks before it: ${name}`, async () => {
      const body = sseBody([chunk('a'), chunk('b')], { done: false }) + errorFrame;
      for (const splitEvery of [undefined, 5]) {
        const { chunks, error } = await run(
          sseResponse(body, splitEvery === undefined ? {} : { splitEvery }),
        );
        expect(chunks).toEqual([chunk('a'), chunk('b')]);
        expectAgentError(error, 'STREAM_ERROR', message);
      }
    });
  }

  it('adds the fix to a known setup error reported mid-stream (llama.cpp out of context)', async () => {
    const frame =
      'data: {"error":{"code":500,"message":"Context size has been exceeded.","type":"server_error"}}\n\n';
    const { error } = await run(sseResponse(sseBody([chunk('a')], { done: false }) + frame));

    expectAgentError(
      error,
      'STREAM_ERROR',
      /^Context size has been exceeded\.\nllama\.cpp: the conversation no longer fits .*--ctx-size/,
    );
    expect((error as { context?: { fix?: string } }).context?.fix).toMatch(/^llama\.cpp: /);
  });

  it('ignores a null error field in a normal chunk', async () => {
    const withNull = { ...chunk('a'), error: null };
    const { chunks, error } = await run(sseResponse(sseBody([withNull])));
    expect(error).toBeUndefined();
    expect(chunks).toEqual([withNull, STREAM_DONE]);
  });
});

describe('fetch backend: INVALID_RESPONSE', () => {
  it('rejects data that is not JSON, after the chunks before it, quoting it', async () => {
    const { chunks, error } = await run(
      sseResponse(`${sseBody([chunk('a')], { done: false })}data: hello world\n\n`),
    );
    expect(chunks).toEqual([chunk('a')]);
    expectAgentError(error, 'INVALID_RESPONSE', /hello world/);
  });

  it('rejects a JSON data value that is not an object', async () => {
    const { error } = await run(sseResponse('data: 42\n\n'));
    expectAgentError(error, 'INVALID_RESPONSE', /received: 42/);
  });

  it('rejects an HTML page (a dev server SPA fallback) and points at baseURL', async () => {
    const page = `<!doctype html><html><head><title>Vite App</title></head><body>${'x'.repeat(500)}</body></html>`;
    const { chunks, error } = await run(
      bytesResponse(`\n  ${page}`, { headers: { 'content-type': 'text/html' }, splitEvery: 40 }),
    );
    expect(chunks).toEqual([]);
    expectAgentError(
      error,
      'INVALID_RESPONSE',
      /received an HTML page: <!doctype html><html><head><title>Vite App/,
    );
    expect((error as Error).message).toMatch(/baseURL/);
    expect((error as Error).message.length).toBeLessThan(400);
  });

  it('rejects a plain-text body', async () => {
    const { error } = await run(
      bytesResponse('Not a stream at all', { headers: { 'content-type': 'text/plain' } }),
    );
    expectAgentError(error, 'INVALID_RESPONSE', /received: Not a stream at all/);
  });

  it('rejects unrelated JSON (a model list from a wrong URL)', async () => {
    const { error } = await run(jsonResponse({ object: 'list', data: [{ id: 'llama' }] }));
    expectAgentError(error, 'INVALID_RESPONSE', /received JSON: \{"object":"list"/);
  });

  it('rejects a truncated JSON body', async () => {
    const { error } = await run(
      bytesResponse('{"id":"x","choices":[', { headers: { 'content-type': 'application/json' } }),
    );
    expectAgentError(error, 'INVALID_RESPONSE', /\{"id":"x","choices":\[/);
  });

  it('reports a JSON error body in a 200 as STREAM_ERROR', async () => {
    const { error } = await run(jsonResponse({ error: { message: 'busy', type: 'overloaded' } }));
    expectAgentError(error, 'STREAM_ERROR', 'busy');
  });
});

describe('fetch backend: servers that ignore stream: true', () => {
  it('turns a whole chat.completion into equivalent chunks and STREAM_DONE', async () => {
    const completion = {
      id: 'cmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'thinking',
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
              {
                id: 'call_2',
                type: 'function',
                function: { name: 'get_time', arguments: { zone: 'CET' } },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
    const { chunks, error } = await run(jsonResponse(completion, { splitEvery: 17 }));
    expect(error).toBeUndefined();
    expect(chunks).toEqual([
      {
        id: 'cmpl-1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [
          {
            index: 0,
            delta: {
              role: 'assistant',
              content: null,
              reasoning_content: 'thinking',
              tool_calls: [
                {
                  index: 0,
                  id: 'call_1',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                },
                {
                  index: 1,
                  id: 'call_2',
                  type: 'function',
                  function: { name: 'get_time', arguments: '{"zone":"CET"}' },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
      {
        id: 'cmpl-1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [],
        usage: completion.usage,
      },
      STREAM_DONE,
    ]);
  });

  it('passes a lone JSON chunk through', async () => {
    const { chunks } = await run(jsonResponse(chunk('whole')));
    expect(chunks).toEqual([chunk('whole'), STREAM_DONE]);
  });
});
