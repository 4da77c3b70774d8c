import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { AgentError } from '../../src/errors/agent-error.js';
import { executeTool } from '../../src/tools/execute-tool.js';
import { javascriptTool } from '../../src/tools/javascript-tool.js';
import {
  parseHostMessage,
  parseWorkerMessage,
  type WorkerMessage,
} from '../../src/tools/worker-protocol.js';
import { workerTool } from '../../src/tools/worker-tool.js';
import { exposeTools } from '../../src/worker/index.js';

// Node 20 has no Worker: these tests pin that the page side can be imported and built
// there, and that the worker side speaks the protocol (driven over a MessageChannel).

describe('worker tools in Node', () => {
  test('build without touching Worker and fail calls with WORKER_FAILED', async () => {
    expect(typeof globalThis.Worker).toBe('undefined');
    const hash = workerTool({
      name: 'hash',
      description: 'Hashes',
      input: z.object({ text: z.string() }),
      worker: '/tools.worker.js',
    });
    const sandbox = javascriptTool();

    const outcomes = await Promise.all([
      executeTool(hash, { text: 'x' }, { toolUseId: 'use-1' }),
      executeTool(sandbox, { code: '1' }, { toolUseId: 'use-2' }),
    ]);

    expect(hash.parameters).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
    expect(sandbox.parameters).toMatchObject({ type: 'object', required: ['code'] });
    expect(outcomes.map((outcome) => (outcome.ok ? 'ok' : outcome.error.code))).toEqual([
      'WORKER_FAILED',
      'WORKER_FAILED',
    ]);
    expect(outcomes[0]?.ok === false && outcomes[0].error.message).toBe(
      'Tool "hash" could not start its worker: Web Workers are not available in this environment',
    );
  });

  test('javascriptTool rejects options the sandbox cannot honour', () => {
    expect(() => javascriptTool({ maxOutputChars: 0 })).toThrow(
      'maxOutputChars must be a positive integer',
    );
    expect(() => javascriptTool({ timeoutMs: -1 })).toThrow('timeoutMs must be a positive number');
    expect(() => javascriptTool({ memoryLimitBytes: 1024 })).toThrow(
      'memoryLimitBytes must be an integer of at least 16777216 (16 MiB)',
    );
    // The deprecated option throws rather than silently granting nothing.
    expect(() => javascriptTool({ allow: ['fetch'] })).toThrow(
      '`allow` is no longer supported: the sandbox is a QuickJS engine with no browser globals, so fetch cannot be kept',
    );
    expect(() => javascriptTool({ allow: [] })).not.toThrow();
  });

  test('javascriptTool describes its limits to the model', () => {
    expect(javascriptTool().description).toContain('no network (fetch, XMLHttpRequest, import()');
    expect(javascriptTool({ timeoutMs: 2000 }).description).toMatch(/within 2 s/);
  });
});

describe('worker protocol', () => {
  test('parses what the worker sends and ignores anything else', () => {
    const error = new AgentError('TOOL_FAILED', 'boom').toJSON();
    expect(parseWorkerMessage({ type: 'tools-ready' })).toEqual({ type: 'tools-ready' });
    expect(parseWorkerMessage({ type: 'tool-result', id: 3, value: [1] })).toEqual({
      type: 'tool-result',
      id: 3,
      value: [1],
    });
    expect(parseWorkerMessage({ type: 'tool-error', id: 3, error })).toEqual({
      type: 'tool-error',
      id: 3,
      error,
    });
    for (const foreign of [
      null,
      'tools-ready',
      { type: 'tool-result', id: '3' },
      { type: 'tool-result', id: 0 },
      { type: 'tool-error', id: 1, error: { code: 'NOPE' } },
      { type: 'progress', id: 1 },
    ]) {
      expect(parseWorkerMessage(foreign)).toBeUndefined();
    }
  });

  test('parses what the page sends and ignores anything else', () => {
    const call = { type: 'tool-call', id: 1, name: 'add', input: { a: 1 }, toolUseId: 'use-1' };
    expect(parseHostMessage(call)).toEqual(call);
    expect(parseHostMessage({ ...call, input: [1] })).toBeUndefined();
    expect(
      parseHostMessage({ type: 'tool-cancel', id: 1, reason: { message: 'x' } }),
    ).toBeUndefined();
  });
});

describe('exposeTools', () => {
  function connect(handlers: Parameters<typeof exposeTools>[0]) {
    const channel = new MessageChannel();
    const received: WorkerMessage[] = [];
    const waiters: (() => void)[] = [];
    channel.port1.addEventListener('message', (event: MessageEvent<unknown>) => {
      const message = parseWorkerMessage(event.data);
      if (message) received.push(message);
      waiters.shift()?.();
    });
    channel.port1.start();
    channel.port2.start();
    exposeTools(handlers, { scope: channel.port2 });
    const next = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => (received.length >= count ? resolve() : waiters.push(check));
        check();
      });
    return { port: channel.port1, received, next, close: () => channel.port1.close() };
  }

  test('answers calls by id, unknown names with TOOL_NOT_FOUND, and aborts a cancelled handler', async () => {
    let abortReason: unknown;
    const worker = connect({
      add: ({ a, b }: { a: number; b: number }) => a + b,
      wait: (_input, { signal }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            abortReason = signal.reason;
            reject(new Error('stopped'));
          }),
        ),
    });

    worker.port.postMessage({
      type: 'tool-call',
      id: 1,
      name: 'wait',
      input: {},
      toolUseId: 'use-1',
    });
    worker.port.postMessage({
      type: 'tool-call',
      id: 2,
      name: 'add',
      input: { a: 2, b: 3 },
      toolUseId: 'use-2',
    });
    worker.port.postMessage({
      type: 'tool-call',
      id: 3,
      name: 'nope',
      input: {},
      toolUseId: 'use-3',
    });
    worker.port.postMessage({
      type: 'tool-cancel',
      id: 1,
      reason: new AgentError('TOOL_TIMEOUT', 'too slow').toJSON(),
    });
    await worker.next(4);
    worker.close();

    expect(
      worker.received.map((message) =>
        message.type === 'tools-ready' ? 'ready' : `${message.type}:${message.id}`,
      ),
    ).toEqual(['ready', 'tool-result:2', 'tool-error:3', 'tool-error:1']);
    expect(worker.received[2]).toMatchObject({
      error: {
        code: 'TOOL_NOT_FOUND',
        message: 'Tool "nope" is not exposed by its worker (available: add, wait)',
      },
    });
    expect(worker.received[1]).toEqual({ type: 'tool-result', id: 2, value: 5 });
    expect(abortReason).toMatchObject({
      name: 'AgentError',
      code: 'TOOL_TIMEOUT',
      message: 'too slow',
    });
  });

  test('refuses a second call on the same scope', () => {
    const channel = new MessageChannel();
    exposeTools({ a: () => 1 }, { scope: channel.port2 });

    expect(() => exposeTools({ b: () => 2 }, { scope: channel.port2 })).toThrow(
      'exposeTools() was already called',
    );
    channel.port1.close();
  });
});
