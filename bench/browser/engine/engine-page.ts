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

// One engine for both paths: the backend makes it, and the bench keeps a handle on it through
// the `library` option. The raw path then sends the engine exactly the parameters the backend
// sent it last (same prompt, max_tokens, temperature 0 = greedy, seed), so both generate the
// same tokens on the same worker and wasm instance in the same warm state.
const PROMPT = 'Write a long story about a cat.';
const SEED = 7;
let engine: Wllama | undefined;
let backend: WllamaBackend | undefined;
let sentParams: Record<string, unknown> | undefined;

async function watchedLibrary() {
  const library = await import('@wllama/wllama');
  class WatchedWllama extends library.Wllama {
    constructor(...args: ConstructorParameters<typeof library.Wllama>) {
      super(...args);
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the bench's handle on the backend's engine
      engine = this;
      const create = this.createChatCompletion.bind(this);
      // Records what the backend asks of the engine, so the raw loop can ask the same.
      this.createChatCompletion = ((options: Record<string, unknown>) => {
        const { onData: _onData, abortSignal: _abortSignal, ...params } = options;
        sentParams = params;
        return create(options as never);
      }) as unknown as typeof create; // one wrapper for all of its overloads
    }
  }
  return { ...library, Wllama: WatchedWllama };
}

async function load(): Promise<{ loadMs: number }> {
  const bytes = tinyLlamaGguf({ endless: true, contextLength: 8192 });
  const start = performance.now();
  backend = wllamaBackend({
    model: [new Blob([bytes as BlobPart])],
    library: watchedLibrary,
    wasm,
    contextSize: 8192,
  });
  await backend.load();
  if (!engine) throw new Error('the backend did not construct its engine through `library`');
  return { loadMs: performance.now() - start };
}

/** Counts a streamed answer the same way on both paths. */
class Timing {
  readonly #start = performance.now();
  #first = 0;
  pieces = 0;
  text = '';
  piece(text: unknown): void {
    if (typeof text !== 'string' || text === '') return;
    if (this.#first === 0) this.#first = performance.now() - this.#start;
    this.pieces++;
    this.text += text;
  }
  done(tokens: number): Generation {
    const totalMs = performance.now() - this.#start;
    return { firstTokenMs: this.#first, totalMs, tokens, pieces: this.pieces, text: this.text };
  }
}

async function rawGeneration(): Promise<Generation> {
  if (!engine || !sentParams) throw new Error('load() and one client() run first');
  const timing = new Timing();
  let tokens = 0;
  // wllama's own streaming loop: createChatCompletion without onData returns its async iterator.
  const chunks = await engine.createChatCompletion({
    ...(sentParams as unknown as Parameters<Wllama['createChatCompletion']>[0]),
    stream: true,
  });
  for await (const chunk of chunks) {
    timing.piece(chunk.choices[0]?.delta.content);
    if (chunk.usage) tokens = chunk.usage.completion_tokens;
  }
  return timing.done(tokens);
}

async function clientGeneration(maxTokens: number): Promise<Generation> {
  if (!backend) throw new Error('load() first');
  const client = new Client({
    model: 'tiny',
    backend,
    maxTokens,
    temperature: 0,
    requestExtras: { seed: SEED },
  });
  const timing = new Timing();
  let tokens = 0;
  for await (const event of client.run(PROMPT)) {
    if (event.type === 'text') timing.piece(event.text);
    if (event.type === 'done') {
      if (event.usage.estimated)
        throw new Error('Client.run estimated usage: the engine sent none');
      tokens = event.usage.completionTokens;
    }
  }
  return timing.done(tokens);
}

/**
 * Watches the main thread while `run` goes on: a `setTimeout(0)` probe whose longest gap
 * between turns bounds the longest task from above (whatever its length), and the browser's
 * `longtask` observer (tasks ≥ 50 ms only).
 */
async function watchingMainThread<T>(
  run: () => Promise<T>,
): Promise<T & { longestGapMs: number; longestTaskMs: number; longTasks: number }> {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) =>
    tasks.push(...list.getEntries().map((entry) => entry.duration)),
  );
  observer.observe({ type: 'longtask', buffered: false });
  let longestGapMs = 0;
  let last = performance.now();
  let probing = true;
  const turn = () => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    if (probing) setTimeout(turn, 0);
  };
  setTimeout(turn, 0);
  try {
    const result = await run();
    // Both report in later tasks: give them a few.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return {
      ...result,
      longestGapMs,
      longestTaskMs: Math.max(0, ...tasks),
      longTasks: tasks.length,
    };
  } finally {
    probing = false;
    observer.disconnect();
  }
}

async function checkProbes(ms: number) {
  const seen = await watchingMainThread(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const start = performance.now();
    while (performance.now() - start < ms) {
      // blocks the main thread on purpose
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    return {};
  });
  return { blockedMs: ms, gapMs: seen.longestGapMs, longTaskMs: seen.longestTaskMs };
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
  raw: rawGeneration,
  client: clientGeneration,
  lastParams: () => JSON.stringify(sentParams),
  checkProbes,
  watched: (maxTokens) => watchingMainThread(() => clientGeneration(maxTokens)),
  toolPromptTokens,
};
window.engineBench = api;
