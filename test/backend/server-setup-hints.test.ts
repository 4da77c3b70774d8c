import { describe, expect, it } from 'vitest';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { fakeFetch, jsonResponse } from '../support/fake-fetch.js';
import { collect } from './collect.js';

// Errors a local server answers when it is not set up for tools, as they are sent: the
// request can never succeed, so the error says what to change and is not retried.

const cases: [server: string, baseURL: string, response: () => Response, fix: RegExp][] = [
  [
    'llama.cpp without --jinja (500)',
    'http://localhost:8080/v1',
    () =>
      jsonResponse(
        {
          error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' },
        },
        { status: 500 },
      ),
    /^llama\.cpp: start llama-server with --jinja/,
  ],
  [
    'older llama.cpp (500 Unsupported param)',
    'http://localhost:8080/v1',
    () =>
      jsonResponse(
        { error: { code: 500, message: 'Unsupported param: tools', type: 'server_error' } },
        { status: 500 },
      ),
    /^llama\.cpp: start llama-server with --jinja/,
  ],
  [
    'Ollama /v1, a model without tools (400)',
    'http://localhost:11434/v1',
    () =>
      jsonResponse(
        {
          error: {
            message: 'registry.ollama.ai/library/gemma3:4b does not support tools',
            type: 'api_error',
            param: null,
            code: null,
          },
        },
        { status: 400 },
      ),
    /^Ollama: this model’s template has no tool support/,
  ],
  [
    'vLLM without --enable-auto-tool-choice (400)',
    'http://localhost:8000/v1',
    () =>
      jsonResponse(
        {
          object: 'error',
          message:
            '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
          type: 'BadRequestError',
          code: 400,
        },
        { status: 400 },
      ),
    /^vLLM: start it with --enable-auto-tool-choice --tool-call-parser/,
  ],
];

describe('fetch backend: server setup errors', () => {
  for (const [server, baseURL, response, fix] of cases) {
    it(`names the fix and does not retry: ${server}`, async () => {
      const fake = fakeFetch([response(), response(), response()]);

      const { error } = await collect(createFetchBackend({ baseURL, fetch: fake.fetch }));

      expect(fake.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: 'HTTP_ERROR' });
      const [first, second] = (error as Error).message.split('\n');
      expect(first).toMatch(/^HTTP (400|500) from http:\/\/localhost:\d+\/v1\/chat\/completions: /);
      expect(second).toMatch(fix);
      expect((error as { context?: { fix?: string } }).context?.fix).toBe(second);
    });
  }

  it('an ordinary 500 is still retried, without a fix line', async () => {
    const fake = fakeFetch([
      jsonResponse({ error: { message: 'out of memory' } }, { status: 500 }),
      jsonResponse({ error: { message: 'out of memory' } }, { status: 500 }),
    ]);

    const { error } = await collect(
      createFetchBackend(
        { baseURL: 'http://localhost:8080/v1', fetch: fake.fetch, maxRetries: 1 },
        { sleep: () => Promise.resolve() },
      ),
    );

    expect(fake.requests).toHaveLength(2);
    expect((error as Error).message).toBe(
      'HTTP 500 from http://localhost:8080/v1/chat/completions: out of memory',
    );
  });
});
