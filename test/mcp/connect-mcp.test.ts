import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  isAgentError,
  scriptedBackend,
  type AgentEvent,
  type Tool,
} from '../../src/index.js';
import { connectMcp, type McpConnection } from '../../src/mcp/index.js';
import { startEverythingServer, type RunningServer } from '../support/mcp-servers.js';

let server: RunningServer;
let connection: McpConnection;
const posted: unknown[] = [];

/** Records every JSON-RPC message the client POSTs, then sends it on. */
const recordingFetch: typeof fetch = async (input, init) => {
  if (init?.method === 'POST' && typeof init.body === 'string') posted.push(JSON.parse(init.body));
  return fetch(input, init);
};

beforeAll(async () => {
  server = await startEverythingServer();
  // server-everything is the test's own server: its annotations may decide (see test/hostile).
  connection = await connectMcp({
    url: server.url,
    fetch: recordingFetch,
    trust: { annotations: true },
  });
}, 30_000);

afterAll(async () => {
  await connection.close();
  await server.stop();
});

function toolNamed(name: string): Tool {
  const found = connection.tools.find((candidate) => candidate.name === name);
  if (!found?.execute) throw new Error(`no tool ${name}`);
  return found;
}

function run(name: string, input: Record<string, unknown>, signal = new AbortController().signal) {
  const found = toolNamed(name);
  const checked = found.validate(input);
  if (!checked.success) throw new Error(`invalid input for ${name}`);
  return Promise.resolve(found.execute?.(checked.value, { signal, toolUseId: 'call_1' }));
}

describe('connectMcp against server-everything (Streamable HTTP)', () => {
  it('lists the server tools as open-agent tools with their JSON Schema and approvals', () => {
    expect(connection.transport).toBe('streamable-http');
    expect(connection.server.name).toMatch(/everything/i);
    const names = connection.tools.map((candidate) => candidate.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'echo',
        'get-sum',
        'get-tiny-image',
        'get-structured-content',
        'trigger-long-running-operation',
      ]),
    );
    const echo = toolNamed('echo');
    expect(echo.parameters).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
    });
    expect(echo.parameters).not.toHaveProperty('$schema');
    expect(echo.needsApproval).toBe(false); // readOnlyHint: true
    const gzip = connection.toolInfo.find((info) => info.serverName === 'gzip-file-as-resource');
    expect(gzip).toMatchObject({ needsApproval: false, annotations: { destructiveHint: false } });
  });

  it('calls tools with valid arguments and maps text results', async () => {
    await expect(run('echo', { message: 'hello' })).resolves.toBe('Echo: hello');
    await expect(run('get-sum', { a: 2, b: 40 })).resolves.toMatch(/42/);
  });

  it('rejects invalid arguments before the call, and maps a server-side error to TOOL_FAILED', async () => {
    const checked = toolNamed('get-sum').validate({ a: 'two', b: 3 });
    expect(checked.success).toBe(false);
    const before = posted.length;
    // Sent anyway (skipping validation): the server answers isError with its own text.
    const failure = await Promise.resolve(
      toolNamed('get-sum').execute?.(
        { a: 'two', b: 3 },
        { signal: new AbortController().signal, toolUseId: 'x' },
      ),
    ).catch((error: unknown) => error);
    expect(isAgentError(failure, 'TOOL_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(/get-sum.*(number|Invalid)/is);
    expect(posted.length).toBeGreaterThan(before);
  });

  it('prefers structuredContent, and keeps images as image content parts', async () => {
    await expect(run('get-structured-content', { location: 'Chicago' })).resolves.toMatchObject({
      temperature: expect.any(Number) as number,
      conditions: expect.any(String) as string,
    });
    const image = (await run('get-tiny-image', {})) as {
      type: string;
      image_url?: { url: string };
    }[];
    expect(image.some((part) => part.type === 'text')).toBe(true);
    const picture = image.find((part) => part.type === 'image_url');
    expect(picture?.image_url?.url).toMatch(/^data:image\/png;base64,iVBOR/);
  });

  it('sends an MCP cancellation when a long-running call is aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const call = run(
      'trigger-long-running-operation',
      { duration: 20, steps: 20 },
      controller.signal,
    );
    setTimeout(() => controller.abort(new Error('stop')), 300);
    await expect(call).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
    const request = posted.find(
      (message) =>
        (message as { params?: { name?: string } }).params?.name ===
        'trigger-long-running-operation',
    ) as { id: number };
    await expect
      .poll(() =>
        posted.some(
          (message) =>
            (message as { method?: string }).method === 'notifications/cancelled' &&
            (message as { params?: { requestId?: unknown } }).params?.requestId === request.id,
        ),
      )
      .toBe(true);
    // The session still works after the cancellation.
    await expect(run('echo', { message: 'still here' })).resolves.toBe('Echo: still here');
  });

  it('runs in a full agent loop: the scripted model calls an MCP tool and reads its result', async () => {
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'get-sum', input: { a: 19, b: 23 } }] },
      { text: 'The sum is 42.' },
    ]);
    const client = new Client({
      model: 'scripted',
      backend,
      tools: connection.tools,
      autoExecuteTools: true,
    });
    const events: AgentEvent[] = [];
    for await (const event of client.run('What is 19 + 23?')) events.push(event);
    const result = events.find((event) => event.type === 'tool_result');
    expect(result).toMatchObject({ type: 'tool_result', name: 'get-sum', isError: false });
    expect(String((result as { content: unknown }).content)).toMatch(/42/);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
    const toolsSent = backend.requests[0]?.tools?.map((definition) => definition.function.name);
    expect(toolsSent).toContain('get-sum');
    const toolMessage = backend.requests[1]?.messages.find((message) => message.role === 'tool');
    expect(JSON.stringify(toolMessage)).toMatch(/42/);
  });

  it('shows the model an image result as an image: get-tiny-image in a full agent loop', async () => {
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'get-tiny-image', input: {}, id: 'call_img' }] },
      { text: 'A tiny picture.' },
    ]);
    const client = new Client({
      model: 'scripted',
      backend,
      tools: () => connection.tools,
      autoExecuteTools: true,
    });
    for await (const _event of client.run('Show me the tiny image')) void _event;
    const sent = backend.requests[1]?.messages ?? [];
    const toolMessage = sent.find((message) => message.role === 'tool');
    expect(typeof toolMessage?.content).toBe('string');
    expect(toolMessage?.content).not.toMatch(/base64/);
    expect(sent.at(-1)).toMatchObject({
      role: 'user',
      content: [
        { type: 'text', text: 'Images returned by the tool "get-tiny-image" (call call_img):' },
        {
          type: 'image_url',
          image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) as string },
        },
      ],
    });
    // Stored as the tool returned it: text and image parts in the tool message.
    const stored = client.history.find((message) => message.role === 'tool');
    expect(Array.isArray(stored?.content)).toBe(true);
  });
});

describe('connectMcp falls back to the legacy HTTP+SSE transport', () => {
  it('connects to server-everything in its SSE mode and calls a tool', async () => {
    const legacy = await startEverythingServer('sse');
    try {
      const sse = await connectMcp({ url: legacy.url });
      try {
        expect(sse.transport).toBe('sse');
        const echo = sse.tools.find((candidate) => candidate.name === 'echo');
        await expect(
          Promise.resolve(
            echo?.execute?.(
              { message: 'old' },
              { signal: new AbortController().signal, toolUseId: 'a' },
            ),
          ),
        ).resolves.toBe('Echo: old');
      } finally {
        await sse.close();
      }
    } finally {
      await legacy.stop();
    }
  }, 30_000);
});
