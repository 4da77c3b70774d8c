import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/loop/client.js';
import type { AgentEvent } from '../../src/types/events.js';
import { collect } from '../support/collect.js';
import { startContextServer, type ContextServer } from '../support/fake-context-servers.js';

// Issue 28: "the model starts mid-thought" is also read from the server — llama.cpp's
// `/props` template, Ollama's `/api/show` capabilities — from the answers the context
// window's probe already asks, so nothing is asked before a short first request: the server's
// word applies from the second request on (or from the first when the probe ran before it).
let server: ContextServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const texts = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === 'text' ? [event.text] : []));
const reasoningOf = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === 'reasoning' ? [event.text] : [])).join('');

/** Qwen3-4B-Thinking-2507's generation prompt: it always opens <think>. */
const THINKING_TEMPLATE =
  "{%- for message in messages %}{%- endfor %}\n{%- if add_generation_prompt %}\n    {{- '<|im_start|>assistant\\n<think>\\n' }}\n{%- endif %}";
const THOUGHT = ['The user', ' wants 4.', '</think>', '4'];

describe("llama.cpp's template", () => {
  it('holds the thought of a model no name pattern knows, from the second request on', async () => {
    server = await startContextServer({
      kind: 'llama.cpp',
      model: 'local.gguf',
      window: 8192,
      chatTemplate: THINKING_TEMPLATE,
      answer: THOUGHT,
    });
    const moved: string[] = [];
    const client = new Client({
      model: 'local.gguf',
      baseURL: server.url,
      onTextWasReasoning: (text) => moved.push(text),
    });
    await collect(client.run('Hi'));
    // Nothing asked before a short first request: the thought showed as text, then moved.
    expect(server.log[0]).toBe('200 POST /v1/chat/completions');
    expect(moved).toEqual(['The user wants 4.']);

    const second = await collect(client.run('Again'));
    // Held as possible reasoning: never shown as text.
    expect(texts(second)).toEqual(['4']);
    expect(reasoningOf(second)).toBe('The user wants 4.');
    expect(moved).toHaveLength(1);
    expect(server.log.filter((line) => !line.startsWith('200 '))).toEqual([]);
  });

  it("gives way to the app's option", async () => {
    server = await startContextServer({
      kind: 'llama.cpp',
      model: 'local.gguf',
      window: 8192,
      chatTemplate: THINKING_TEMPLATE,
      answer: THOUGHT,
    });
    const moved: string[] = [];
    const client = new Client({
      model: 'local.gguf',
      baseURL: server.url,
      textMarkup: { startsInReasoning: false },
      onTextWasReasoning: (text) => moved.push(text),
    });
    await collect(client.run('Hi'));
    await collect(client.run('Again'));
    // Not held either time: shown as text, moved once its </think> came.
    expect(moved).toEqual(['The user wants 4.', 'The user wants 4.']);
  });
});

describe("Ollama's capabilities", () => {
  it('a model Ollama thinks for is not held once the server said so', async () => {
    server = await startContextServer({
      kind: 'ollama',
      model: 'qwen3.5:9b',
      window: 8192,
      thinking: true,
      answer: THOUGHT,
    });
    const moved: string[] = [];
    const client = new Client({
      model: 'qwen3.5:9b',
      baseURL: server.url,
      onTextWasReasoning: (text) => moved.push(text),
    });
    // The name alone holds: the thought is never shown as text.
    await collect(client.run('Hi'));
    expect(moved).toEqual([]);
    // Ollama moves a thought into `reasoning` itself: content is not held any more (here a
    // stray </think> shows it, as text first).
    await collect(client.run('Again'));
    expect(moved).toEqual(['The user wants 4.']);
  });
});
