import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { executeTool } from '../../src/tools/execute-tool.js';
import { connectWorker } from '../../src/tools/worker-connection.js';
import { workerTool } from '../../src/tools/worker-tool.js';
import { rejection, toolsWorker, track } from './fixtures/worker-test-support.js';

// How worker tools survive timeouts, aborts, stuck handlers and workers that fail.

describe('timeouts, aborts and restarts', () => {
  test('a handler stuck in a loop times out, its worker is terminated, and the next call gets a fresh worker', async () => {
    const { connection, spawned } = toolsWorker();
    const spin = workerTool({
      name: 'spin',
      description: 'Spins',
      input: z.object({}),
      worker: connection,
      timeoutMs: 150,
    });
    const idBefore = await connection.call('worker_id', {});

    const outcome = await executeTool(spin, {}, { toolUseId: 'use-1' });
    const idAfter = await connection.call('worker_id', {});

    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('TOOL_TIMEOUT');
    expect(idAfter).not.toBe(idBefore);
    expect(spawned).toHaveLength(2);
  });

  test('a direct call times out too, and calls in flight on the stuck worker fail with WORKER_FAILED', async () => {
    const { connection } = toolsWorker();
    // The worker is up first: a timeout that fires while it still loads never posts the call
    // (see the next test), so nothing would be restarted.
    await connection.call('worker_id', {});
    const waiting = rejection(connection.call('wait_for_abort', {}, { toolUseId: 'bystander' }));

    const timedOut = await rejection(connection.call('spin', {}, { timeoutMs: 150 }));
    const bystander = await waiting;

    expect(timedOut).toMatchObject({
      code: 'TOOL_TIMEOUT',
      message: 'Tool "spin" timed out after 150 ms',
    });
    expect(bystander.code).toBe('WORKER_FAILED');
    expect(bystander.message).toMatch(
      /^Tool "wait_for_abort" did not complete: its worker was restarted: tool "spin" was stopped/,
    );
  });

  test('a call that times out while its worker is still loading never runs, and the worker stays', async () => {
    const { connection, spawned } = toolsWorker();

    // 0 ms: the timer fires before the module worker has sent tools-ready.
    const timedOut = await rejection(connection.call('spin', {}, { timeoutMs: 0 }));
    const sum = await connection.call('add', { a: 2, b: 3 });

    expect(timedOut.code).toBe('TOOL_TIMEOUT');
    expect(sum).toEqual({ sum: 5 });
    expect(spawned).toHaveLength(1);
  });

  test('aborting the signal cancels the call and aborts the handler signal in the worker', async () => {
    const { connection, spawned } = toolsWorker();
    const wait = workerTool({
      name: 'wait_for_abort',
      description: 'Waits',
      input: z.object({}),
      worker: connection,
    });
    const controller = new AbortController();
    const idBefore = await connection.call('worker_id', {});

    const running = rejection(
      Promise.resolve(wait.execute?.({}, { signal: controller.signal, toolUseId: 'use-42' })),
    );
    controller.abort();
    const error = await running;
    const seenInWorker = await connection.call('aborted_calls', {});

    expect(error.code).toBe('EXECUTION_CANCELLED');
    expect(seenInWorker).toEqual([{ toolUseId: 'use-42', code: 'EXECUTION_CANCELLED' }]);
    expect(await connection.call('worker_id', {})).toBe(idBefore);
    expect(spawned).toHaveLength(1);
  });

  test('through executeTool, an aborted run is EXECUTION_CANCELLED', async () => {
    const { connection } = toolsWorker();
    const wait = workerTool({
      name: 'wait_for_abort',
      description: 'Waits',
      input: z.object({}),
      worker: connection,
    });
    const controller = new AbortController();

    const running = executeTool(wait, {}, { signal: controller.signal, toolUseId: 'use-1' });
    controller.abort();
    const outcome = await running;

    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('EXECUTION_CANCELLED');
  });

  test('a handler that ignores its abort is terminated after the grace period; the next call gets a fresh worker', async () => {
    const { connection, spawned } = toolsWorker({ cancelGraceMs: 50 });
    const controller = new AbortController();
    await connection.call('worker_id', {}); // the worker is up: the next calls are posted at once
    const bystander = rejection(connection.call('wait_for_abort', {}));

    const ignoring = rejection(connection.call('ignore_abort', {}, { signal: controller.signal }));
    controller.abort();
    const cancelled = await ignoring;
    const lost = await bystander;
    const sum = await connection.call('add', { a: 20, b: 22 });

    expect(cancelled.code).toBe('EXECUTION_CANCELLED');
    expect(lost.code).toBe('WORKER_FAILED');
    expect(lost.message).toContain('did not finish within 50 ms');
    expect(sum).toEqual({ sum: 42 });
    expect(spawned).toHaveLength(2);
  });

  test('a signal already aborted rejects without spawning a worker', async () => {
    const { connection, spawned } = toolsWorker();

    const error = await rejection(
      connection.call('add', { a: 1, b: 1 }, { signal: AbortSignal.abort() }),
    );

    expect(error.code).toBe('EXECUTION_CANCELLED');
    expect(spawned).toHaveLength(0);
  });

  test('terminate() fails calls in flight; the next call spawns again', async () => {
    const { connection, spawned } = toolsWorker();
    const waiting = rejection(connection.call('wait_for_abort', {}));
    await connection.call('worker_id', {});

    connection.terminate();
    const error = await waiting;
    const sum = await connection.call('add', { a: 1, b: 1 });

    expect(error).toMatchObject({
      code: 'WORKER_FAILED',
      message: 'Tool "wait_for_abort" did not complete: its worker was terminated',
    });
    expect(sum).toEqual({ sum: 2 });
    expect(spawned).toHaveLength(2);
  });
});

describe('workers that fail', () => {
  test('a worker script that does not exist is WORKER_FAILED', async () => {
    const connection = connectWorker('/no-such-dir/missing.worker.js');
    track(connection);
    const missing = workerTool({
      name: 'anything',
      description: 'x',
      input: z.object({}),
      worker: connection,
    });

    const outcome = await executeTool(missing, {}, { toolUseId: 'use-1' });

    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('WORKER_FAILED');
    expect(outcome.error.message).toMatch(
      /^Tool "anything" did not complete: its worker failed: the worker script failed to load/,
    );
  });

  test('a worker that throws while loading is WORKER_FAILED with the thrown message', async () => {
    const connection = connectWorker(
      () =>
        new Worker(new URL('./fixtures/crash-on-load.worker.ts', import.meta.url), {
          type: 'module',
        }),
    );
    track(connection);

    const error = await rejection(connection.call('anything', {}));

    expect(error.code).toBe('WORKER_FAILED');
    expect(error.message).toContain('config missing: cannot start');
    expect(error.cause).toBeDefined();
  });

  test('a factory that throws is WORKER_FAILED with the cause', async () => {
    const cause = new DOMException('blocked by CSP', 'SecurityError');
    const connection = connectWorker(() => {
      throw cause;
    });

    const error = await rejection(connection.call('anything', {}));

    expect(error).toMatchObject({
      code: 'WORKER_FAILED',
      message: 'Tool "anything" could not start its worker: blocked by CSP',
    });
    expect(error.cause).toBe(cause);
  });

  test('calls wait for a worker that sets up asynchronously, and foreign messages are ignored', async () => {
    const connection = connectWorker(
      () =>
        new Worker(new URL('./fixtures/slow-start.worker.ts', import.meta.url), { type: 'module' }),
    );
    track(connection);

    const result = await connection.call('ready_late', {});

    expect(result).toBe('late but ready');
  });
});
