import type { Wllama } from '@wllama/wllama';
import { z } from 'zod';
import wasm from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { Client, tool, wllamaBackend, type WllamaBackend } from '../../../src/index.js';
import { constrainTools } from '../../../src/backend/engines/constrained-tools.js';
import { tinyLlamaGguf } from '../../../test/support/gguf/tiny-llama.js';
import type { EngineBenchApi, Generation } from './engine-bench-api.js';

// The same prompt, model bytes and sampling for both paths: greedy decoding of the tiny
// random-weight model, so both generate the same tokens.
const PROMPT = 'Write a long story about a cat.';
let raw: Wllama | undefined;
let backend: WllamaBackend | undefined;

async function load(): Promise<{ rawLoadMs: number; backendLoadMs: number }> {
  const bytes = tinyLlamaGguf({ endless: true });
  const { Wllama } = await import('@wllama/wllama');
  let start = performance.now();
  raw = new Wllama(
    { default: new URL(wasm, location.href).href },
    {
      suppressNativeLog: true,
      logger: {
        debug: () => undefined,
        log: () => undefined,
        warn: () => undefined,
        error: () => undefined,
      },
    },
  );
  raw.setCompat(null);
  await raw.loadModel([new Blob([bytes as BlobPart])], { n_ctx: 2048 });
  const rawLoadMs = performance.now() - start;
  start = performance.now();
  backend = wllamaBackend({
    model: [new Blob([bytes as BlobPart])],
    library: () => import('@wllama/wllama'),
    wasm,
    contextSize: 2048,
  });
  await backend.load();
  return { rawLoadMs, backendLoadMs: performance.now() - start };
}

/** Long main-thread tasks (≥ 50 ms, as the browser reports them) while `run` goes on. */
async function watchingLongTasks<T>(
  run: () => Promise<T>,
): Promise<T & { longestTaskMs: number; longTasks: number }> {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) =>
    tasks.push(...list.getEntries().map((entry) => entry.duration)),
  );
  observer.observe({ type: 'longtask', buffered: false });
  try {
    const result = await run();
    // Entries are delivered in a later task: give them one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    return { ...result, longestTaskMs: Math.max(0, ...tasks), longTasks: tasks.length };
  } finally {
    observer.disconnect();
  }
}

async function rawGeneration(maxTokens: number): Promise<Generation> {
  if (!raw) throw new Error('load() first');
  const start = performance.now();
  let first = 0;
  let tokens = 0;
  // stream_options is llama-server's (wllama passes it through; its types do not list it).
  const options = {
    messages: [{ role: 'user' as const, content: PROMPT }],
    stream: true as const,
    max_tokens: maxTokens,
    temperature: 0,
    stream_options: { include_usage: true },
  };
  const chunks = await raw.createChatCompletion(options);
  for await (const chunk of chunks) {
    const content = chunk.choices[0]?.delta.content;
    if (typeof content === 'string' && content !== '' && first === 0)
      first = performance.now() - start;
    if (chunk.usage) tokens = chunk.usage.completion_tokens;
  }
  return { firstTokenMs: first, totalMs: performance.now() - start, tokens };
}

async function clientGeneration(
  maxTokens: number,
): Promise<Generation & { longestTaskMs: number; longTasks: number }> {
  if (!backend) throw new Error('load() first');
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) =>
    tasks.push(...list.getEntries().map((entry) => entry.duration)),
  );
  observer.observe({ type: 'longtask', buffered: false });
  const client = new Client({ model: 'tiny', backend, maxTokens, temperature: 0 });
  const start = performance.now();
  let first = 0;
  let tokens = 0;
  for await (const event of client.run(PROMPT)) {
    if (event.type === 'text' && first === 0) first = performance.now() - start;
    if (event.type === 'done') tokens = event.usage.completionTokens;
  }
  const totalMs = performance.now() - start;
  observer.disconnect();
  return {
    firstTokenMs: first,
    totalMs,
    tokens,
    longestTaskMs: Math.max(0, ...tasks),
    longTasks: tasks.length,
  };
}

async function toolPromptTokens(): Promise<{
  without: number;
  withTool: number;
  instructionsChars: number;
}> {
  if (!backend) throw new Error('load() first');
  const add = tool({
    name: 'add',
    description: 'Adds two integers.',
    input: z.object({ a: z.int(), b: z.int() }),
    execute: ({ a, b }) => a + b,
  });
  const usage = async (tools: boolean) => {
    const client = new Client({
      model: 'tiny',
      backend: backend as WllamaBackend,
      maxTokens: 1,
      temperature: 0,
      ...(tools ? { tools: [add] } : {}),
    });
    let prompt = 0;
    for await (const event of client.run('Add 2 and 3'))
      if (event.type === 'done') prompt = event.usage.promptTokens;
    return prompt;
  };
  const constrained = constrainTools({
    model: 'tiny',
    stream: true,
    messages: [{ role: 'user', content: 'Add 2 and 3' }],
    tools: [
      {
        type: 'function',
        function: { name: add.name, description: add.description, parameters: add.parameters },
      },
    ],
  });
  const instructions = constrained?.messages[0]?.content;
  return {
    without: await usage(false),
    withTool: await usage(true),
    instructionsChars: typeof instructions === 'string' ? instructions.length : 0,
  };
}

const api: EngineBenchApi = {
  load,
  raw: (maxTokens) => watchingLongTasks(() => rawGeneration(maxTokens)),
  client: (maxTokens) => watchingLongTasks(() => clientGeneration(maxTokens)),
  toolPromptTokens,
};
window.engineBench = api;
