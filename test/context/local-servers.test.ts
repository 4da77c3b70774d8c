import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import type { AgentError } from '../../src/errors/agent-error.js';
import type { AgentEvent } from '../../src/types/events.js';
import type { ContentPart } from '../../src/types/message.js';
import { collect } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import {
  startContextServer,
  type ContextServer,
  type FakeKind,
  type RecordedChat,
} from '../support/fake-context-servers.js';

// A long conversation with a tool exchange per prompt, against a fake of each local server
// with a 2,048-token window: it keeps working, with the system prompt and tools in every
// request, and the stored history keeps every message.
const lookup = tool({
  name: 'lookup',
  description: 'Looks a topic up',
  input: z.object({ topic: z.string() }),
  execute: ({ topic }) => `Notes on ${topic}: ${'a fact worth keeping. '.repeat(12)}`,
});
const SYSTEM = 'You are a careful assistant. Use lookup before answering.';

let server: ContextServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function converse(client: Client, prompts: number): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for (let index = 0; index < prompts; index += 1) {
    events.push(
      ...(await collect(client.run(`Question ${index}: ${'tell me more about this. '.repeat(6)}`))),
    );
  }
  return events;
}

function expectEveryRequestWhole(chats: RecordedChat[]): void {
  for (const { body } of chats) {
    expect(body.messages[0]).toEqual({ role: 'system', content: SYSTEM });
    expect(body.tools).toHaveLength(1);
    const calls = new Set(
      body.messages.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id)),
    );
    const results = new Set(
      body.messages.flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : [])),
    );
    expect(results).toEqual(calls);
    expect(body.messages[1]?.role).toBe('user');
  }
}

describe.each<FakeKind>(['llama.cpp', 'vllm', 'lmstudio', 'ollama'])(
  'a long conversation against %s',
  (kind) => {
    it('fits every request to the window the server reports', async () => {
      server = await startContextServer({ kind, model: 'm', window: 2048 });
      const errors: AgentError[] = [];
      const client = new Client({
        model: 'm',
        baseURL: server.url,
        systemPrompt: SYSTEM,
        tools: [lookup],
        autoExecuteTools: true,
        maxTokens: 512,
        onError: (error) => errors.push(error),
      });
      const events = await converse(client, 25);
      expect(
        events
          .filter((event) => event.type === 'done')
          .map((event) => event.type === 'done' && event.status),
      ).toEqual(Array(25).fill('completed'));
      expect(server.chats.map((chat) => chat.outcome)).not.toContain('refused');
      expect(server.chats.map((chat) => chat.outcome)).not.toContain('truncated');
      expect(errors).toEqual([]);
      const trimmed = events.filter((event) => event.type === 'context_trimmed');
      expect(trimmed.length).toBeGreaterThan(10);
      expect(trimmed.every((event) => event.contextWindow === 2048)).toBe(true);
      expectEveryRequestWhole(server.chats);
      expect(Math.max(...server.chats.map((chat) => chat.promptTokens))).toBeLessThanOrEqual(
        2048 - 512,
      );
      // Stored: every message of the 25 prompts (user, call, result, answer).
      expect(client.history).toHaveLength(100);
      assertHistoryConsistent(client.history);
      // The window was asked once.
      expect(new Set(server.probes).size).toBe(server.probes.length);
    });
  },
);

describe('Ollama', () => {
  it('detects a silent truncation, reports it with the fix and fits the next requests', async () => {
    // An older Ollama: 2,048 tokens, and /api/ps does not list the model.
    server = await startContextServer({ kind: 'ollama', model: 'm', window: 2048, listed: false });
    const errors: AgentError[] = [];
    const client = new Client({
      model: 'm',
      baseURL: server.url,
      systemPrompt: SYSTEM,
      tools: [lookup],
      autoExecuteTools: true,
      maxTokens: 512,
      onError: (error) => errors.push(error),
    });
    await converse(client, 25);
    const truncated = server.chats.filter((chat) => chat.outcome === 'truncated');
    expect(truncated).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'CONTEXT_OVERFLOW', context: { contextWindow: 2048 } });
    expect(errors[0]?.message).toMatch(/OLLAMA_CONTEXT_LENGTH/);
    const after = server.chats.slice(server.chats.indexOf(truncated[0] as RecordedChat) + 1);
    expect(after.length).toBeGreaterThan(10);
    expect(after.every((chat) => chat.outcome === 'answered')).toBe(true);
    expectEveryRequestWhole(server.chats);
    expect(client.history).toHaveLength(100);
  });

  it('sends a stable num_ctx on the native API, raised in large steps up to the trained maximum', async () => {
    server = await startContextServer({
      kind: 'ollama',
      model: 'm',
      window: 2048,
      trainedMax: 32768,
    });
    const client = new Client({
      model: 'm',
      baseURL: server.origin,
      api: 'ollama',
      systemPrompt: SYSTEM,
      tools: [lookup],
      autoExecuteTools: true,
      maxTokens: 512,
    });
    const events = await converse(client, 40);
    // The short first prompt goes out before anything is asked, with the server's own window.
    expect(server.chats[0]?.body.options?.num_ctx).toBeUndefined();
    const numCtx = server.chats.slice(1).map((chat) => chat.body.options?.num_ctx);
    expect(
      numCtx.every((value) => typeof value === 'number' && value % 8192 === 0 && value <= 32768),
    ).toBe(true);
    // Raised only when needed: few distinct values, never lowered.
    expect(new Set(numCtx).size).toBeLessThanOrEqual(3);
    expect(numCtx).toEqual([...numCtx].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(server.chats.every((chat) => chat.outcome === 'answered')).toBe(true);
    expect(events.some((event) => event.type === 'context_trimmed')).toBe(false);
    expect(client.history).toHaveLength(160);
  });
});

describe('a refusal naming the window', () => {
  it.each<FakeKind>(['llama.cpp', 'vllm'])(
    '%s: is learned, and the retry fits the window it named',
    async (kind) => {
      // The server does not say its window when asked: the client assumes 4,096, twice too many.
      server = await startContextServer({ kind, model: 'm', window: 2048, reportsWindow: false });
      const client = new Client({
        model: 'm',
        baseURL: server.url,
        systemPrompt: SYSTEM,
        tools: [lookup],
        autoExecuteTools: true,
        maxTokens: 512,
      });
      let failure: unknown;
      for (let index = 0; index < 25 && failure === undefined; index += 1) {
        await collect(
          client.run(`Question ${index}: ${'tell me more about this. '.repeat(6)}`),
        ).catch((error: unknown) => (failure = error));
      }
      expect(failure).toMatchObject({ code: 'HTTP_ERROR', status: 400 });
      const refused = server.chats.length;
      client.continue();
      const events = await collect(client.receiveMessages());
      expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
      expect(events.find((event) => event.type === 'context_trimmed')).toMatchObject({
        contextWindow: 2048,
      });
      expect(server.chats.slice(refused).every((chat) => chat.outcome === 'answered')).toBe(true);
      expectEveryRequestWhole(server.chats);
    },
  );
});

describe('a model that takes no images', () => {
  const picture: ContentPart[] = [
    { type: 'text', text: 'What is this?' },
    { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
  ];

  it.each<{ kind: FakeKind; fix: RegExp }>([
    { kind: 'llama.cpp', fix: /--mmproj/ },
    { kind: 'ollama', fix: /vision capability/ },
    { kind: 'lmstudio', fix: /"vlm"/ },
  ])(
    '$kind says so up front: a clear error, no request, asked once per model',
    async ({ kind, fix }) => {
      server = await startContextServer({ kind, model: 'text-only', window: 8192, vision: false });
      const client = new Client({ model: 'text-only', baseURL: server.url, maxRetries: 0 });
      const failure = await collect(client.run(picture)).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect((failure as AgentError).message).toMatch(/cannot take images/);
      expect((failure as AgentError).context?.fix).toMatch(fix);
      expect(server.chats).toEqual([]);
      const probes = server.probes.length;
      await collect(client.run('And in words?'));
      await collect(client.run(picture)).catch(() => undefined);
      expect(server.probes.length).toBe(probes);
    },
  );

  it.each<FakeKind>(['llama.cpp', 'ollama', 'lmstudio'])(
    '%s with a vision model: the image is sent',
    async (kind) => {
      server = await startContextServer({ kind, model: 'seer', window: 8192, vision: true });
      const client = new Client({ model: 'seer', baseURL: server.url, maxRetries: 0 });
      await collect(client.run(picture));
      expect(server.chats[0]?.body.messages.at(-1)?.content).toEqual(picture);
    },
  );

  it.each<FakeKind>(['vllm'])('%s does not say: its refusal comes with the fix', async (kind) => {
    server = await startContextServer({ kind, model: 'text-only', window: 8192, vision: false });
    const client = new Client({ model: 'text-only', baseURL: server.url, maxRetries: 0 });
    const failure = await collect(client.run(picture)).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'HTTP_ERROR' });
    expect((failure as AgentError).context?.fix).toMatch(/takes no images/);
  });
});
