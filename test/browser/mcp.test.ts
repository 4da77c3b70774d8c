import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, isAgentError, scriptedBackend, type AgentEvent } from '../../src/index.js';
import { connectMcp, type McpConnection } from '../../src/mcp/index.js';

// The Vitest page and the servers are on different origins (localhost:<vite> vs
// 127.0.0.1:<port>): every request below is a real cross-origin request with CORS.
const servers = inject('mcpServers');
let connection: McpConnection;

beforeAll(async () => {
  expect(new URL(servers.everything).origin).not.toBe(location.origin);
  // The test's own server-everything: its annotations may decide approvals (test/hostile has the
  // server that lies in them).
  connection = await connectMcp({ url: servers.everything, trust: { annotations: true } });
});

afterAll(async () => {
  await connection.close();
});

function execute(
  name: string,
  input: Record<string, unknown>,
  signal = new AbortController().signal,
) {
  const found = connection.tools.find((candidate) => candidate.name === name);
  return Promise.resolve(found?.execute?.(input, { signal, toolUseId: 'call_1' }));
}

describe('connectMcp from a page (Chromium, cross-origin)', () => {
  it('lists tools and calls them: text, structured and image results', async () => {
    expect(connection.transport).toBe('streamable-http');
    expect(connection.tools.map((tool) => tool.name)).toContain('echo');
    await expect(execute('echo', { message: 'from the page' })).resolves.toBe(
      'Echo: from the page',
    );
    await expect(
      execute('get-structured-content', { location: 'New York' }),
    ).resolves.toMatchObject({
      temperature: expect.any(Number) as number,
    });
    const parts = (await execute('get-tiny-image', {})) as {
      type: string;
      image_url?: { url: string };
    }[];
    expect(parts.find((part) => part.type === 'image_url')?.image_url?.url).toMatch(
      /^data:image\/png;base64,/,
    );
  });

  it('maps a server-side error for invalid arguments to TOOL_FAILED', async () => {
    expect(
      connection.tools.find((tool) => tool.name === 'get-sum')?.validate({ a: 'x', b: 1 }).success,
    ).toBe(false);
    const error = await execute('get-sum', { a: 'x', b: 1 }).catch((thrown: unknown) => thrown);
    expect(isAgentError(error, 'TOOL_FAILED')).toBe(true);
  });

  it('aborts a long-running call', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const call = execute(
      'trigger-long-running-operation',
      { duration: 20, steps: 20 },
      controller.signal,
    );
    setTimeout(() => controller.abort(new Error('stop')), 300);
    await expect(call).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(10_000);
    await expect(execute('echo', { message: 'again' })).resolves.toBe('Echo: again');
  });

  it('runs a full agent loop in the page with an MCP tool', async () => {
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'echo', input: { message: 'loop' } }] },
      { text: 'The server said: Echo: loop' },
    ]);
    const client = new Client({
      model: 'scripted',
      backend,
      tools: connection.tools,
      autoExecuteTools: true,
    });
    const events: AgentEvent[] = [];
    for await (const event of client.run('Echo "loop"')) events.push(event);
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({
      name: 'echo',
      content: 'Echo: loop',
      isError: false,
    });
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
  });

  it('a server that does not allow the page (CORS): NETWORK_ERROR naming the origin and the headers', async () => {
    const error = (await connectMcp({ url: servers.noCors }).catch(
      (thrown: unknown) => thrown,
    )) as Error;
    expect(isAgentError(error, 'NETWORK_ERROR')).toBe(true);
    expect(error.message).toContain(location.origin);
    expect(error.message).toMatch(/CORS.*Mcp-Session-Id/s);
  });

  it('a 401 from the page: HTTP_ERROR saying that the server wants credentials', async () => {
    const error = (await connectMcp({ url: servers.unauthorized }).catch(
      (thrown: unknown) => thrown,
    )) as Error & {
      status?: number;
    };
    expect(isAgentError(error, 'HTTP_ERROR')).toBe(true);
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/wants credentials/);
  });
});
