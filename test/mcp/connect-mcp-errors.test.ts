import { describe, expect, it } from 'vitest';
import { isAgentError } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/index.js';
import { startEverythingServer, startHttpServer } from '../support/mcp-servers.js';

async function connectError(url: string) {
  return connectMcp({ url }).then(
    async (connection) => {
      await connection.close();
      throw new Error('connected');
    },
    (error: unknown) => error as Error & { code?: string; status?: number },
  );
}

describe('connectMcp errors a person can act on', () => {
  it('a wrong URL (nothing listening): NETWORK_ERROR naming the URL', async () => {
    const closed = await startHttpServer((_request, response) => response.end());
    await closed.stop(); // the port is now free: nothing answers
    const error = await connectError(closed.url);
    expect(isAgentError(error, 'NETWORK_ERROR')).toBe(true);
    expect(error.message).toContain(closed.url);
    expect(error.message).toMatch(/running/);
  });

  it('a 401: HTTP_ERROR saying that the server wants credentials', async () => {
    const guarded = await startHttpServer((_request, response) => {
      response.writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'application/json' });
      response.end('{"error":"unauthorized"}');
    });
    try {
      const error = await connectError(guarded.url);
      expect(isAgentError(error, 'HTTP_ERROR')).toBe(true);
      expect(error.status).toBe(401);
      expect(error.message).toMatch(/wants credentials.*headers/s);
    } finally {
      await guarded.stop();
    }
  });

  it('a non-MCP server answering HTML: INVALID_RESPONSE, not an MCP server', async () => {
    const site = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Hello</title>');
    });
    try {
      const error = await connectError(site.url);
      expect(isAgentError(error, 'INVALID_RESPONSE')).toBe(true);
      expect(error.message).toMatch(/did not answer like an MCP server/);
    } finally {
      await site.stop();
    }
  });

  it('a non-MCP server answering 404 to both transports: HTTP_ERROR 404, check the URL', async () => {
    const requests: string[] = [];
    const site = await startHttpServer((request, response) => {
      requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('Not Found');
    });
    try {
      const error = await connectError(site.url);
      expect(isAgentError(error, 'HTTP_ERROR')).toBe(true);
      expect(error.status).toBe(404);
      expect(error.message).toMatch(/check the URL/);
      expect(requests).toEqual(['POST /mcp', 'GET /mcp']); // tried Streamable HTTP, then legacy SSE
    } finally {
      await site.stop();
    }
  });

  it('an aborted signal cancels connecting: EXECUTION_CANCELLED', async () => {
    const requests: string[] = [];
    const slow = await startHttpServer((request) => {
      requests.push(request.method ?? ''); // never answers
    });
    try {
      const controller = new AbortController();
      const connecting = connectMcp({ url: slow.url, signal: controller.signal }).catch(
        (error: unknown) => error,
      );
      await expect.poll(() => requests.length).toBeGreaterThan(0);
      controller.abort();
      expect(isAgentError(await connecting, 'EXECUTION_CANCELLED')).toBe(true);
    } finally {
      await slow.stop();
    }
  });

  it('a server that stops mid-call: TOOL_FAILED with the cause', async () => {
    const server = await startEverythingServer();
    const connection = await connectMcp({ url: server.url });
    try {
      const slow = connection.tools.find(
        (candidate) => candidate.name === 'trigger-long-running-operation',
      );
      const call = Promise.resolve(
        slow?.execute?.(
          { duration: 30, steps: 30 },
          { signal: new AbortController().signal, toolUseId: 'a' },
        ),
      ).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 300));
      server.child.kill('SIGKILL');
      const error = await call;
      expect(isAgentError(error, 'TOOL_FAILED')).toBe(true);
      expect((error as Error).message).toMatch(/connection to the MCP server at .* was lost/);
      expect((error as Error).cause).toBeInstanceOf(Error);
    } finally {
      await connection.close().catch(() => undefined);
      await server.stop();
    }
  }, 30_000);
});
