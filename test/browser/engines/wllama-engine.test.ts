import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import { z } from 'zod';
import wasm from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { wllamaBackend, type WllamaBackend } from '../../../src/backend/engines/wllama-backend.js';
import { Client } from '../../../src/loop/client.js';
import { query } from '../../../src/loop/query.js';
import { tool } from '../../../src/tools/tool.js';
import type { AgentEvent } from '../../../src/types/events.js';
import { isAgentError } from '../../../src/errors/agent-error.js';
import { tinyLlamaGguf } from '../../support/gguf/tiny-llama.js';
import '../../../components/index.js';
import type { AgentChat } from '../../../components/index.js';

// The real llama.cpp engine (wllama 3.13, WebAssembly, its own worker) on a random-weight
// model the test writes itself: no download, no network, no CDN (wasm served from
// node_modules by Vite). Each engine compiles a 10 MB wasm, so the whole file uses two: one
// for every behaviour (through Client, query() and <agent-chat> alike), one for the reload
// from the cache.

const MODEL = 'tiny';
// A fresh name per run: the page's OPFS cache starts without it.
const FILE = `tiny-${Date.now()}.gguf`;
const WRITTEN = `test/browser/engines/written-models/${FILE}`; // from the project root; gitignored
const URL_PATH = `/test/browser/engines/written-models/${FILE}`;
const library = () => import('@wllama/wllama');

let backend: WllamaBackend;

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function textOf(events: readonly AgentEvent[]): string {
  return events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');
}

function modelFetches(): number {
  return performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith(URL_PATH))
    .length;
}

beforeAll(async () => {
  await commands.writeFile(WRITTEN, base64(tinyLlamaGguf()), { encoding: 'base64' });
  backend = wllamaBackend({ model: URL_PATH, library, wasm, contextSize: 1024 });
});

afterAll(async () => {
  await backend.unload();
  await commands.removeFile(WRITTEN).catch(() => undefined);
});

describe('wllamaBackend, the real engine', { timeout: 60_000 }, () => {
  test('downloads and loads on first use, reporting waiting events, then streams text', async () => {
    const client = new Client({ model: MODEL, backend, maxTokens: 24, temperature: 0 });
    const events = await collect(client.run('Hello there'));
    const waiting = events.filter((event) => event.type === 'waiting');
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((event) => event.phase === 'loading_model' && event.model === MODEL)).toBe(
      true,
    );
    expect(waiting.at(-1)?.progress).toBe(1);
    const firstText = events.findIndex((event) => event.type === 'text');
    expect(firstText).toBeGreaterThan(events.lastIndexOf(waiting.at(-1) as AgentEvent));
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
    expect(backend.loaded).toBe(true);
    expect(backend.contextWindow?.(MODEL)).toBe(1024);
    expect(modelFetches()).toBeGreaterThan(0);
  });

  test('a constrained tool call runs the tool and the loop completes with a structured answer', async () => {
    const seen: unknown[] = [];
    const add = tool({
      name: 'add',
      description: 'Adds two integers.',
      input: z.object({ a: z.int().min(0).max(99), b: z.int().min(0).max(99) }),
      execute: ({ a, b }) => {
        seen.push({ a, b });
        return a + b;
      },
    });
    const client = new Client({
      model: MODEL,
      backend,
      tools: [add],
      toolChoice: 'required',
      autoExecuteTools: true,
      maxTokens: 256,
      temperature: 0,
      responseFormat: { schema: z.object({ sum: z.int().min(0).max(999) }) },
    });
    const events = await collect(client.run('Add 2 and 3'));
    const uses = events.filter((event) => event.type === 'tool_use');
    expect(uses.length).toBeGreaterThan(0);
    expect(uses.every((event) => event.name === 'add')).toBe(true);
    expect(events.some((event) => event.type === 'tool_use_error')).toBe(false);
    expect(seen).toEqual(uses.map((event) => event.input));
    expect(events.filter((event) => event.type === 'tool_result')).toHaveLength(uses.length);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', status: 'completed' });
    expect(
      z.object({ sum: z.int() }).safeParse(done?.type === 'done' ? done.output : undefined).success,
    ).toBe(true);
  });

  test('with tools on auto, the answer is text or valid calls, never JSON shown as text', async () => {
    const add = tool({
      name: 'add',
      description: 'Adds two integers.',
      input: z.object({ a: z.int().min(0).max(99), b: z.int().min(0).max(99) }),
    });
    for (const seed of [1, 2, 3]) {
      const events = await collect(
        query('Add 2 and 3', {
          model: MODEL,
          backend,
          tools: [add],
          maxTokens: 48,
          requestExtras: { seed },
        }),
      );
      expect(events.some((event) => event.type === 'tool_use_error')).toBe(false);
      expect(textOf(events)).not.toMatch(/^\s*\{\s*"(answer|tool_calls)"/);
      expect(events.at(-1)?.type).toBe('done');
    }
  });

  test('responseFormat constrains the answer to the schema', async () => {
    const schema = z.object({ city: z.enum(['Oslo', 'Paris']), rank: z.int().min(1).max(9) });
    const events = await collect(
      query('Name a city', {
        model: MODEL,
        backend,
        maxTokens: 64,
        temperature: 0,
        responseFormat: { schema },
      }),
    );
    const done = events.at(-1);
    expect(done?.type === 'done' && schema.safeParse(done.output).success).toBe(true);
  });

  test('stop mid-answer cancels the run, keeps the partial text, and the next request works', async () => {
    const client = new Client({ model: MODEL, backend, maxTokens: 200, temperature: 0 });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const event of client.run('Tell me a long story', { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text') controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    expect(client.history.at(-1)?.role).toBe('assistant');
    const next = await collect(client.run('Again'));
    expect(next.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
  });

  test('a prompt over the window fails with CONTEXT_OVERFLOW from the engine', async () => {
    const long = 'the cat sat on the mat. '.repeat(200); // ~4,800 characters: > 1,024 tokens
    // A larger window than the engine's, so the request reaches the engine and it refuses.
    const run = collect(
      query(long, { model: MODEL, backend, maxTokens: 8, contextWindow: 100_000 }),
    );
    const error: unknown = await run.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isAgentError(error, 'CONTEXT_OVERFLOW')).toBe(true);
    expect((error as Error).message).toMatch(/exceeds the available context size \(1024 tokens\)/);
    // The window the backend reports: the loop itself refuses (contextPolicy 'error').
    const fitted = await collect(
      query(long, { model: MODEL, backend, maxTokens: 8, contextPolicy: 'error' }),
    ).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isAgentError(fitted, 'CONTEXT_OVERFLOW')).toBe(true);
  });

  describe('through <agent-chat> (setting `backend` is all it takes)', () => {
    const mounted: AgentChat[] = [];
    afterEach(() => mounted.splice(0).forEach((chat) => chat.remove()));

    function mountChat(setup: (chat: AgentChat) => void): { chat: AgentChat; seen: AgentEvent[] } {
      const chat = document.createElement('agent-chat');
      chat.style.height = '480px';
      chat.model = MODEL;
      chat.backend = backend; // the engine the Client tests loaded: one wasm compile per file
      setup(chat);
      const seen: AgentEvent[] = [];
      chat.addEventListener('agent-event', (event) => seen.push(event.detail));
      document.body.append(chat);
      mounted.push(chat);
      return { chat, seen };
    }
    const shadow = (chat: AgentChat) => chat.shadowRoot as ShadowRoot;
    const shown = (chat: AgentChat, selector: string) =>
      [...shadow(chat).querySelectorAll(selector)].map((node) => node.textContent ?? '').join('');

    test("streams the engine's answer into the log", async () => {
      const { chat, seen } = mountChat((element) => {
        element.options = { maxTokens: 24, temperature: 0 };
      });
      expect(await chat.send('Hello there')).toBe(true);
      const texts = seen.filter((event) => event.type === 'text');
      expect(texts.length).toBeGreaterThan(1); // streamed: more than one piece
      expect(seen.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
      const answer = textOf(seen);
      await chat.updateComplete;
      // What the log shows is the engine's text (markdown may render it: compare its words).
      const words = answer.split(/\s+/).filter((word) => /^[a-z]{3,}$/i.test(word));
      for (const word of words.slice(0, 3))
        await expect
          .poll(() => shown(chat, 'article.assistant'), { timeout: 15_000 })
          .toContain(word);
      expect(chat.activeClient?.history.at(-1)).toMatchObject({
        role: 'assistant',
        content: answer,
      });
    });

    test('a constrained tool call runs the tool, its card shows, and the loop completes', async () => {
      const seen: unknown[] = [];
      const add = tool({
        name: 'add',
        description: 'Adds two integers.',
        input: z.object({ a: z.int().min(0).max(99), b: z.int().min(0).max(99) }),
        execute: ({ a, b }) => {
          seen.push({ a, b });
          return a + b;
        },
      });
      const { chat, seen: events } = mountChat((element) => {
        element.tools = [add];
        element.options = {
          toolChoice: 'required',
          autoExecuteTools: true,
          maxTokens: 256,
          temperature: 0,
          responseFormat: { schema: z.object({ sum: z.int().min(0).max(999) }) },
        };
      });
      expect(await chat.send('Add 2 and 3')).toBe(true);
      const uses = events.filter((event) => event.type === 'tool_use');
      expect(uses.length).toBeGreaterThan(0);
      expect(seen).toEqual(uses.map((event) => event.input));
      expect(events.filter((event) => event.type === 'tool_result')).toHaveLength(uses.length);
      expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
      // The tool cards load as their own chunk after the first paint.
      await expect
        .poll(() => shadow(chat).querySelectorAll('[part~="tool-card"]').length, {
          timeout: 15_000,
        })
        .toBe(uses.length);
    });

    test('Stop mid-answer keeps the partial answer, and the next message is answered', async () => {
      const { chat, seen } = mountChat((element) => {
        element.options = { maxTokens: 200, temperature: 0 };
      });
      let pieces = 0;
      chat.addEventListener('agent-event', (event) => {
        if (event.detail.type === 'text' && ++pieces === 3) chat.stop();
      });
      await chat.send('Tell me a long story');
      expect(seen.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
      const partial = textOf(seen);
      expect(partial.length).toBeGreaterThan(0);
      expect(chat.activeClient?.history.at(-1)).toMatchObject({
        role: 'assistant',
        content: partial,
      });
      await chat.updateComplete;
      expect(shown(chat, 'article.assistant')).toContain('Stopped.');
      const before = seen.length;
      expect(await chat.send('Again')).toBe(true);
      expect(seen.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
      expect(seen.slice(before).some((event) => event.type === 'text')).toBe(true);
    });
  });

  test('a second load of the same URL reads the cache (OPFS): no network, even with the file gone', async () => {
    const fetchesBefore = modelFetches();
    await backend.unload();
    await commands.removeFile(WRITTEN);
    const again = wllamaBackend({ model: URL_PATH, library, wasm, contextSize: 1024 });
    const progress: number[] = [];
    await again.load({ onProgress: (value) => progress.push(value) });
    expect(again.loaded).toBe(true);
    expect(progress.at(-1)).toBe(1);
    expect(modelFetches()).toBe(fetchesBefore);
    const events = await collect(
      query('Hello', { model: MODEL, backend: again, maxTokens: 8, temperature: 0 }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    await again.unload();
  });
});

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}
