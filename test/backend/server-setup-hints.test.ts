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
  [
    'llama.cpp, conversation longer than --ctx-size (400)',
    'http://localhost:8080/v1',
    () =>
      jsonResponse(
        {
          error: {
            code: 400,
            message:
              'request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it',
            type: 'exceed_context_size_error',
            n_prompt_tokens: 4390,
            n_ctx: 4096,
          },
        },
        { status: 400 },
      ),
    /^llama\.cpp: the conversation no longer fits/,
  ],
  [
    'llama.cpp, context filled while generating (500)',
    'http://localhost:8080/v1',
    () =>
      jsonResponse(
        { error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' } },
        { status: 500 },
      ),
    /^llama\.cpp: the conversation no longer fits/,
  ],
  [
    'vLLM, prompt + max_tokens over --max-model-len (400)',
    'http://localhost:8000/v1',
    () =>
      jsonResponse(
        {
          object: 'error',
          message:
            "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (4904 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.",
          type: 'BadRequestError',
          code: 400,
        },
        { status: 400 },
      ),
    /^The conversation plus maxTokens .* raise --max-model-len\.$/,
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
