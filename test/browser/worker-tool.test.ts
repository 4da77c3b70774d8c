import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { AgentError } from '../../src/errors/agent-error.js';
import { executeTool } from '../../src/tools/execute-tool.js';
import { workerTool } from '../../src/tools/worker-tool.js';
import { context, rejection, toolsWorker } from './fixtures/worker-test-support.js';

describe('workerTool', () => {
  test('runs a handler in the worker and returns its value', async () => {
    const { connection } = toolsWorker();
    const add = workerTool({
      name: 'add',
      description: 'Adds two numbers',
      input: z.object({ a: z.number(), b: z.number() }),
      worker: connection,
    });

    const result = await add.execute?.({ a: 2, b: 3 }, context());

    expect(result).toEqual({ sum: 5 });
    expect(add.parameters).toMatchObject({ type: 'object', required: ['a', 'b'] });
  });

  test('validates direct calls on the page before posting', async () => {
    const { connection, spawned } = toolsWorker();
    const add = workerTool({
      name: 'add',
      description: 'Adds two numbers',
      input: z.object({ a: z.number(), b: z.number() }),
      worker: connection,
    });

    const error = await rejection(Promise.resolve(add.execute?.({ a: 'two', b: 3 }, context())));

    expect(error.code).toBe('INVALID_TOOL_INPUT');
    expect(error.message).toContain('a: ');
    expect(spawned).toHaveLength(0);
  });

  test('passes validate output through once: zod transforms are not applied twice', async () => {
    const { connection } = toolsWorker();
    const echo = workerTool({
      name: 'echo_later',
      description: 'Echoes',
      input: z.object({ text: z.string().transform((text) => `${text}!`) }),
      worker: connection,
    });
    const validation = echo.validate({ text: 'hi' });
    if (!validation.success) throw new Error(validation.error);

    const outcome = await executeTool(echo, validation.value, { toolUseId: 'use-7' });

    expect(outcome).toEqual({ ok: true, content: { input: { text: 'hi!' }, toolUseId: 'use-7' } });
  });

  test('tools given the same factory share one worker', async () => {
    const spawned: Worker[] = [];
    const spawn = () => {
      const worker = new Worker(new URL('./fixtures/tools.worker.ts', import.meta.url), {
        type: 'module',
      });
      spawned.push(worker);
      return worker;
    };
    const first = workerTool({
      name: 'worker_id',
      description: 'id',
      input: z.object({}),
      worker: spawn,
    });
    const second = workerTool({
      name: 'add',
      description: 'add',
      input: z.object({ a: z.number(), b: z.number() }),
      worker: spawn,
    });

    const [id, sum] = await Promise.all([
      first.execute?.({}, context()),
      second.execute?.({ a: 1, b: 1 }, context()),
    ]);

    expect(typeof id).toBe('string');
    expect(sum).toEqual({ sum: 2 });
    expect(spawned).toHaveLength(1);
    spawned[0]?.terminate();
  });

  test('50 concurrent calls on one worker are each matched to their own result', async () => {
    const { connection, spawned } = toolsWorker();
    const echo = workerTool({
      name: 'echo_later',
      description: 'Echoes',
      input: z.object({ n: z.number() }),
      worker: connection,
    });

    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        echo.execute?.({ n }, { signal: new AbortController().signal, toolUseId: `use-${n}` }),
      ),
    );

    expect(results).toEqual(
      Array.from({ length: 50 }, (_, n) => ({ input: { n }, toolUseId: `use-${n}` })),
    );
    expect(spawned).toHaveLength(1);
  });
});

describe('errors crossing the worker boundary', () => {
  test('an AgentError thrown by a handler keeps its code, status and context', async () => {
    const { connection } = toolsWorker();

    const error = await rejection(connection.call('fail_coded', {}));

    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({
      code: 'HTTP_ERROR',
      message: 'upstream answered 503',
      status: 503,
      context: { url: 'https://example.test' },
    });
  });

  test('an error with a known `code` field keeps that code', async () => {
    const { connection } = toolsWorker();

    const error = await rejection(connection.call('fail_code_field', {}));

    expect(error).toMatchObject({ code: 'STORAGE_FAILED', message: 'quota gone' });
  });

  test('a plain Error is TOOL_FAILED with its message, also through executeTool', async () => {
    const { connection } = toolsWorker();
    const failing = workerTool({
      name: 'fail_plain',
      description: 'Fails',
      input: z.object({ message: z.string() }),
      worker: connection,
    });

    const outcome = await executeTool(failing, { message: 'disk on fire' }, { toolUseId: 'use-1' });

    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({
      code: 'TOOL_FAILED',
      message: 'Tool "fail_plain" failed: disk on fire',
      context: { errorName: 'TypeError' },
    });
  });

  test('a name the worker does not expose is TOOL_NOT_FOUND', async () => {
    const { connection } = toolsWorker();

    const error = await rejection(connection.call('no_such_tool', {}));

    expect(error.code).toBe('TOOL_NOT_FOUND');
    expect(error.message).toMatch(/"no_such_tool" is not exposed by its worker \(available: add, /);
  });

  test('a result that cannot be cloned is TOOL_FAILED and the worker keeps serving', async () => {
    const { connection, spawned } = toolsWorker();

    const error = await rejection(connection.call('return_function', {}));
    const sum = await connection.call('add', { a: 1, b: 2 });

    expect(error.code).toBe('TOOL_FAILED');
    expect(error.message).toContain('cannot be sent to the page');
    expect(sum).toEqual({ sum: 3 });
    expect(spawned).toHaveLength(1);
  });
});
