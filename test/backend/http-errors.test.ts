import { describe, expect, it } from 'vitest';
import { corsHint, isLocalHost } from '../../src/backend/cors-hint.js';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { isAgentError } from '../../src/errors/agent-error.js';
import { bytesResponse, fakeFetch, jsonResponse } from '../support/fake-fetch.js';
import { collect } from './collect.js';

const URL_V1 = 'http://localhost:11434/v1';
const ENDPOINT = `${URL_V1}/chat/completions`;

async function run(response: Response) {
  const fake = fakeFetch([response]);
  return collect(createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch, maxRetries: 0 }));
}

describe('fetch backend: HTTP errors', () => {
  const bodies: [string, Response, string][] = [
    [
      'OpenAI {"error":{"message"}}',
      jsonResponse(
        { error: { message: 'model "x" not found', type: 'invalid_request_error' } },
        { status: 404 },
      ),
      'model "x" not found',
    ],
    [
      'Ollama {"error":"…"}',
      jsonResponse({ error: "model 'x' not found, try pulling it first" }, { status: 404 }),
      "model 'x' not found, try pulling it first",
    ],
    [
      'vLLM {"object":"error","message"}',
      jsonResponse(
        {
          object: 'error',
          message: 'The model `x` does not exist.',
          type: 'NotFoundError',
          code: 404,
        },
        { status: 404 },
      ),
      'The model `x` does not exist.',
    ],
    ['FastAPI {"detail"}', jsonResponse({ detail: 'Not Found' }, { status: 404 }), 'Not Found'],
    [
      'plain text',
      bytesResponse('404 page not found', {
        status: 404,
        headers: { 'content-type': 'text/plain' },
      }),
      '404 page not found',
    ],
    [
      'HTML error page',
      bytesResponse(
        '<html><head><title>404 Not Found</title></head><body><center>nginx</center></body></html>',
        { status: 404 },
      ),
      '404 Not Found',
    ],
  ];

  for (const [name, response, serverMessage] of bodies) {
    it(`throws HTTP_ERROR with status, URL and the server's message: ${name}`, async () => {
      const { chunks, error } = await run(response);
      expect(chunks).toEqual([]);
      expect(isAgentError(error, 'HTTP_ERROR')).toBe(true);
      expect(error).toMatchObject({
        status: 404,
        message: `HTTP 404 from ${ENDPOINT}: ${serverMessage}`,
      });
    });
  }

  it('falls back to the status text for an empty body', async () => {
    const { error } = await run(new Response(null, { status: 401, statusText: 'Unauthorized' }));
    expect(error).toMatchObject({
      code: 'HTTP_ERROR',
      status: 401,
      message: `HTTP 401 from ${ENDPOINT}: Unauthorized`,
    });
  });

  it('truncates a long plain-text body', async () => {
    const { error } = await run(bytesResponse('E'.repeat(5_000), { status: 400 }));
    expect((error as Error).message.length).toBeLessThan(300);
  });
});

describe('fetch backend: network errors', () => {
  it('throws NETWORK_ERROR naming the URL and the cause', async () => {
    const refused = new TypeError('fetch failed', {
      cause: new Error('connect ECONNREFUSED 127.0.0.1:11434'),
    });
    const fake = fakeFetch([refused]);
    const { error } = await collect(
      createFetchBackend({ baseURL: URL_V1, fetch: fake.fetch, maxRetries: 0 }),
    );
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      message: `Could not reach ${ENDPOINT}: fetch failed (connect ECONNREFUSED 127.0.0.1:11434)`,
    });
  });

  it('adds a CORS hint for a local server when running in a page', async () => {
    const fake = fakeFetch([new TypeError('Failed to fetch')]);
    const backend = createFetchBackend(
      { baseURL: URL_V1, fetch: fake.fetch, maxRetries: 0 },
      { pageOrigin: () => 'http://localhost:5173' },
    );
    const { error } = await collect(backend);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR' });
    const message = (error as Error).message;
    expect(message).toContain(`Could not reach ${ENDPOINT}: Failed to fetch`);
    expect(message).toContain('CORS');
    expect(message).toContain('OLLAMA_ORIGINS=http://localhost:5173');
    expect(message).not.toContain('LM Studio');
  });

  it('gives no CORS hint outside a page or for a remote server', async () => {
    const outside = await collect(
      createFetchBackend(
        {
          baseURL: URL_V1,
          fetch: fakeFetch([new TypeError('Failed to fetch')]).fetch,
          maxRetries: 0,
        },
        { pageOrigin: () => undefined },
      ),
    );
    const remote = await collect(
      createFetchBackend(
        {
          baseURL: 'https://api.example.com/v1',
          fetch: fakeFetch([new TypeError('Failed to fetch')]).fetch,
          maxRetries: 0,
        },
        { pageOrigin: () => 'http://localhost:5173' },
      ),
    );
    expect((outside.error as Error).message).not.toContain('CORS');
    expect((remote.error as Error).message).not.toContain('CORS');
  });
});

describe('corsHint', () => {
  const page = 'http://localhost:5173';

  it.each([
    ['http://localhost:11434/v1', 'Ollama', 'OLLAMA_ORIGINS=http://localhost:5173'],
    ['http://127.0.0.1:1234/v1', 'LM Studio', 'lms server start --cors'],
    ['http://[::1]:8080/v1', 'llama.cpp', '--api-prefix'],
    ['http://192.168.1.20:8000/v1', 'vLLM', `--allowed-origins '["http://localhost:5173"]'`],
  ])('guesses the server from the port: %s → %s', (url, server, fix) => {
    const hint = corsHint(url, page);
    expect(hint).toContain(server);
    expect(hint).toContain(fix);
    expect(hint?.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(1);
  });

  it('lists every server when the port says nothing', () => {
    const hint = corsHint('http://gpu-box.local:9999/v1', page) ?? '';
    for (const server of ['Ollama', 'LM Studio', 'llama.cpp', 'vLLM'])
      expect(hint).toContain(server);
  });

  it("says what to do when Chrome's Local Network Access was denied to a public page", () => {
    const hint = corsHint('http://localhost:11434/v1', 'https://chat.example.com', 'denied') ?? '';
    expect(hint.split('\n')[0]).toMatch(/Local Network Access/);
    expect(hint.split('\n')[0]).toMatch(/Allow/);
    expect(hint).toContain('OLLAMA_ORIGINS=https://chat.example.com');
  });

  it('leads with a denied permission even when the page looks local to us', () => {
    // Chrome decides what is public from the address it connected to (a tunnel, a proxy, an
    // address-space override), so its permission state is the better word (e2e:
    // local-network-access.spec.ts runs the real gate).
    const hint = corsHint('http://127.0.0.1:11434/v1', 'http://127.0.0.1:5173', 'denied') ?? '';
    expect(hint.split('\n')[0]).toMatch(/Local Network Access permission is denied/);
  });

  it('mentions the Local Network Access prompt to a public page, not to a local one', () => {
    expect(corsHint('http://localhost:11434/v1', 'https://chat.example.com')).toMatch(
      /Local Network Access/,
    );
    expect(corsHint('http://localhost:11434/v1', page)).not.toMatch(/Local Network Access/);
  });

  it('suggests * when the page has no origin (file://)', () => {
    expect(corsHint('http://localhost:11434', 'null')).toContain('OLLAMA_ORIGINS=*');
  });

  it('mentions mixed content for an https page calling a plain-http LAN address', () => {
    expect(corsHint('http://10.0.0.5:11434', 'https://app.example.com')).toContain('mixed content');
    expect(corsHint('http://localhost:11434', 'https://app.example.com')).not.toContain(
      'mixed content',
    );
  });

  it('is undefined for remote hosts, the same origin, and invalid URLs', () => {
    expect(corsHint('https://api.openai.com/v1', page)).toBeUndefined();
    expect(corsHint('http://localhost:5173/v1', page)).toBeUndefined();
    expect(corsHint('not a url', page)).toBeUndefined();
  });

  it.each([
    ['localhost', true],
    ['app.localhost', true],
    ['127.0.0.2', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.0.10', true],
    ['169.254.1.1', true],
    ['printer.local', true],
    ['fd12:3456::1', true],
    ['fe80::1', true],
    ['8.8.8.8', false],
    ['example.com', false],
    ['localhost.example.com', false],
  ])('isLocalHost(%s) = %s', (host, expected) => {
    expect(isLocalHost(host)).toBe(expected);
  });
});
