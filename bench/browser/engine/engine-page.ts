import type { Wllama } from '@wllama/wllama';
import { z } from 'zod';
import wasm from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import {
  Client,
  chromeAIBackend,
  tool,
  wllamaBackend,
  type WllamaBackend,
} from '../../../src/index.js';
import { toolInstructions } from '../../../src/backend/engines/constrained-tools.js';
import { fakeLanguageModel } from '../../../test/support/fake-language-model.js';
import { tinyLlamaGguf } from '../../../test/support/gguf/tiny-llama.js';
import type { EngineBenchApi, Generation, ToolCost } from './engine-bench-api.js';

// The same prompt, model bytes and sampling for both paths: greedy decoding of the tiny
// random-weight model, so both generate the same tokens.
const PROMPT = 'Write a long story about a cat.';
let raw: Wllama | undefined;
let backend: WllamaBackend | undefined;

async function load(): Promise<{ rawLoadMs: number; backendLoadMs: number }> {
  const bytes = tinyLlamaGguf({ endless: true, contextLength: 8192 });
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
  await raw.loadModel([new Blob([bytes as BlobPart])], { n_ctx: 8192 });
  const rawLoadMs = performance.now() - start;
  start = performance.now();
  backend = wllamaBackend({
    model: [new Blob([bytes as BlobPart])],
    library: () => import('@wllama/wllama'),
    wasm,
    contextSize: 8192,
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

/** `count` distinct tools of a typical shape: a description and two or three typed arguments. */
function sampleTools(count: number) {
  return Array.from({ length: count }, (_, index) =>
    tool({
      name: `lookup_${index}`,
      description: `Looks up records of kind ${index} matching a query.`,
      input: z.object({
        query: z.string(),
        limit: z.int().min(1).max(20),
        ...(index % 2 === 0 ? { exact: z.boolean() } : {}),
      }),
      execute: () => 'none',
    }),
  );
}

/** Characters of every message text a Prompt API session was given (initial prompts and the prompt). */
function chromeInputChars(fake: ReturnType<typeof fakeLanguageModel>): number {
  const text = (input: unknown): number =>
    typeof input === 'string'
      ? input.length
      : Array.isArray(input)
        ? input.reduce<number>(
            (sum, message: { content?: unknown }) =>
              sum + (typeof message.content === 'string' ? message.content.length : 0),
            0,
          )
        : 0;
  return (
    fake.created.reduce((sum, options) => sum + text(options.initialPrompts), 0) +
    fake.prompts.reduce((sum, prompt) => sum + text(prompt.input), 0)
  );
}

async function toolPromptTokens(counts: readonly number[]): Promise<ToolCost[]> {
  if (!backend) throw new Error('load() first');
  const engine = backend;
  const costs: ToolCost[] = [];
  for (const count of counts) {
    const tools = sampleTools(count);
    const client = new Client({
      model: 'tiny',
      backend: engine,
      maxTokens: 1,
      temperature: 0,
      tools,
    });
    let promptTokens = 0;
    for await (const event of client.run('Find the records about cats'))
      if (event.type === 'done') promptTokens = event.usage.promptTokens;
    const definitions = tools.map((entry) => ({
      type: 'function' as const,
      function: { name: entry.name, description: entry.description, parameters: entry.parameters },
    }));
    const instructions =
      count === 0 ? '' : toolInstructions(definitions, false); /* what constrainTools adds */
    // Chrome's Prompt API, faked: what the backend hands a session (the schema is not added
    // to the input: omitResponseConstraintInput, the tools are in the system prompt already).
    const fake = fakeLanguageModel({ replies: [['{"answer":"ok"}']] });
    const chrome = new Client({
      model: 'gemini-nano',
      backend: chromeAIBackend({ languageModel: fake.api }),
      tools,
    });
    let chromeDone = false;
    for await (const event of chrome.run('Find the records about cats'))
      if (event.type === 'done') chromeDone = event.status === 'completed';
    if (!chromeDone) throw new Error('the faked Prompt API run did not complete');
    costs.push({
      tools: count,
      promptTokens,
      instructionsChars: instructions.length,
      chromeInputChars: chromeInputChars(fake),
    });
  }
  return costs;
}

const api: EngineBenchApi = {
  load,
  raw: (maxTokens) => watchingLongTasks(() => rawGeneration(maxTokens)),
  client: (maxTokens) => watchingLongTasks(() => clientGeneration(maxTokens)),
  toolPromptTokens,
};
window.engineBench = api;
