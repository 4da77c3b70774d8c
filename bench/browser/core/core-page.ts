import { z } from 'zod';
import { indexedDBHistory, type HistoryStore } from '../../../src/index.js';
import { workerTool } from '../../../src/tools/worker-tool.js';
import { benchMessages } from './bench-messages.js';
import type { CoreBenchApi, IndexedDBTimes, WorkerRoundTrip } from './core-bench-api.js';

const WARMUP_CALLS = 50;

async function workerRoundTrip(calls: number): Promise<WorkerRoundTrip> {
  const echo = workerTool({
    name: 'echo',
    description: 'Returns its input',
    input: z.object({ text: z.string(), n: z.number() }),
    worker: () => new Worker(new URL('./echo.worker.ts', import.meta.url), { type: 'module' }),
  });
  const execute = echo.execute;
  if (!execute) throw new Error('workerTool returned a tool without execute');
  const toolMs: number[] = [];
  for (let call = 0; call < WARMUP_CALLS + calls; call++) {
    const validation = echo.validate({ text: 'ping', n: call });
    if (!validation.success) throw new Error(validation.error);
    const signal = new AbortController().signal;
    const start = performance.now();
    await execute(validation.value, { signal, toolUseId: `call_${call}` });
    if (call >= WARMUP_CALLS) toolMs.push(performance.now() - start);
  }

  const raw = new Worker(new URL('./raw-echo.worker.ts', import.meta.url), { type: 'module' });
  const rawMs: number[] = [];
  try {
    for (let call = 0; call < WARMUP_CALLS + calls; call++) {
      const start = performance.now();
      await new Promise<void>((resolve) => {
        raw.addEventListener('message', () => resolve(), { once: true });
        raw.postMessage({ id: call, name: 'echo', input: { text: 'ping', n: call } });
      });
      if (call >= WARMUP_CALLS) rawMs.push(performance.now() - start);
    }
  } finally {
    raw.terminate();
  }
  return { toolMs, rawMs, crossOriginIsolated };
}

async function timeAppends(
  store: HistoryStore,
  conversationId: string,
  from: number,
  appends: number,
): Promise<number[]> {
  const times: number[] = [];
  for (const message of benchMessages(appends, from)) {
    const start = performance.now();
    await store.append(conversationId, [message]);
    times.push(performance.now() - start);
  }
  return times;
}

async function indexedDBTimes(options: {
  appends: number;
  loads: number;
}): Promise<IndexedDBTimes> {
  const dbName = `open-agent-bench-${Date.now()}`;
  const store = indexedDBHistory({ dbName });
  try {
    await store.append('small', benchMessages(100));
    // A few appends first so the first timed one does not pay for opening the database.
    await timeAppends(store, 'small', 100, 5);
    const appendAt100Ms = await timeAppends(store, 'small', 105, options.appends);

    const fillStart = performance.now();
    for (let offset = 0; offset < 10_000; offset += 1_000)
      await store.append('large', benchMessages(1_000, offset));
    const fillMs = performance.now() - fillStart;

    const loadMs: number[] = [];
    let loadedCount = 0;
    for (let load = 0; load < options.loads; load++) {
      // A fresh instance each time: nothing cached in memory, as after a page reload.
      const reader = indexedDBHistory({ dbName });
      const start = performance.now();
      const conversation = await reader.load('large');
      loadMs.push(performance.now() - start);
      loadedCount = conversation?.messages.length ?? 0;
      reader.close?.();
    }

    await timeAppends(store, 'large', 10_000, 5);
    const appendAt10kMs = await timeAppends(store, 'large', 10_005, options.appends);
    return { appendAt100Ms, appendAt10kMs, loadMs, loadedCount, fillMs };
  } finally {
    store.close?.();
    indexedDB.deleteDatabase(dbName);
  }
}

const api: CoreBenchApi = { workerRoundTrip, indexedDB: indexedDBTimes };
window.coreBench = api;
