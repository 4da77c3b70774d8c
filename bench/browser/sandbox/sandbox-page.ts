import { javascriptTool } from '../../../src/index.js';
import type { SandboxBenchApi } from './sandbox-bench-api.js';

const WARMUP_CALLS = 20;
const SNIPPET = 'const xs = [3, 1, 2];\nconsole.log(xs.length);\nxs.toSorted().map((x) => x * 2)';
const tool = javascriptTool();

async function call(code: string, id: string): Promise<void> {
  await tool.prepare?.(); // as the loop does: the JSON Schema validator loads on demand
  const validation = tool.validate({ code });
  if (!validation.success) throw new Error(validation.error);
  const answer = (await tool.execute?.(validation.value, {
    signal: new AbortController().signal,
    toolUseId: id,
  })) as { error?: unknown } | undefined; // javascriptTool resolves to a JavaScriptResult
  if (!answer || answer.error !== undefined)
    throw new Error(`sandbox run failed: ${JSON.stringify(answer)}`);
}

const api: SandboxBenchApi = {
  async firstRun() {
    const start = performance.now();
    await call('1 + 1', 'first');
    return performance.now() - start;
  },
  async roundTrips(calls) {
    const times: number[] = [];
    for (let index = 0; index < WARMUP_CALLS + calls; index++) {
      const start = performance.now();
      await call(SNIPPET, `call-${index}`);
      if (index >= WARMUP_CALLS) times.push(performance.now() - start);
    }
    return times;
  },
};
window.sandboxBench = api;
