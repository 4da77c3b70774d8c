import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, scriptedBackend, tool, type ContentPart } from '../../src/index.js';
import { collect } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import {
  startContextServer,
  type ContextServer,
  type FakeKind,
} from '../support/fake-context-servers.js';

// A tool result with an image (what an MCP tool's image becomes): the stored history keeps the
// content parts; each server receives them in the shape it accepts — OpenAI's chat completions
// take no image in a tool message, so the images follow in a user message (Ollama's native API:
// `images`), unless the server says the model takes no images.
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const DATA_URL = `data:image/png;base64,${PIXEL}`;
const parts: ContentPart[] = [
  { type: 'text', text: 'A tiny image:' },
  { type: 'image_url', image_url: { url: DATA_URL } },
];
const lookup = tool({
  name: 'lookup',
  description: 'Looks a topic up and returns a picture',
  input: z.object({ topic: z.string() }),
  execute: () => parts,
});

let server: ContextServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('tool results with images', () => {
  it('with a backend: the tool message keeps the text, a user message after the round carries the image', async () => {
    const backend = scriptedBackend([
      {
        toolCalls: [
          { name: 'lookup', input: { topic: 'a' }, id: 'call_a' },
          { name: 'lookup', input: { topic: 'b' }, id: 'call_b' },
        ],
      },
      { text: 'I see a pixel.' },
    ]);
    const client = new Client({
      model: 'scripted',
      backend,
      tools: [lookup],
      autoExecuteTools: true,
    });
    await collect(client.run('look'));
    expect(backend.requests[1]?.messages.slice(1)).toEqual([
      expect.objectContaining({ role: 'assistant' }),
      {
        role: 'tool',
        tool_call_id: 'call_a',
        name: 'lookup',
        content: 'A tiny image:\n\n[Its image follows in the next message.]',
      },
      {
        role: 'tool',
        tool_call_id: 'call_b',
        name: 'lookup',
        content: 'A tiny image:\n\n[Its image follows in the next message.]',
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by the tool "lookup" (call call_a):' },
          { type: 'image_url', image_url: { url: DATA_URL } },
          { type: 'text', text: 'Images returned by the tool "lookup" (call call_b):' },
          { type: 'image_url', image_url: { url: DATA_URL } },
        ],
      },
    ]);
    const history = client.history;
    expect(
      history.filter((message) => message.role === 'tool').map((message) => message.content),
    ).toEqual([parts, parts]);
    expect(history).toHaveLength(5); // no user message was stored for the images
    assertHistoryConsistent(history);
  });

  it.each<[FakeKind, boolean | undefined]>([
    ['llama.cpp', true],
    ['vllm', undefined],
    ['lmstudio', true],
    ['ollama', true],
  ])(
    '%s (vision %s) receives the image as an image_url part of a user message',
    async (kind, vision) => {
      server = await startContextServer({
        kind,
        model: 'm',
        window: 8192,
        ...(vision === undefined ? {} : { vision }),
      });
      const client = new Client({
        model: 'm',
        baseURL: server.url,
        tools: [lookup],
        autoExecuteTools: true,
      });
      await collect(client.run('look'));
      const sent = server.chats[1]?.body.messages ?? [];
      expect(sent.at(-2)).toMatchObject({
        role: 'tool',
        content: 'A tiny image:\n\n[Its image follows in the next message.]',
      });
      expect(sent.at(-1)).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by the tool "lookup" (call call_1):' },
          { type: 'image_url', image_url: { url: DATA_URL } },
        ],
      });
      expect(server.chats).toHaveLength(2);
    },
  );

  it("Ollama's native API receives the image as base64 in a message's images", async () => {
    server = await startContextServer({ kind: 'ollama', model: 'm', window: 8192, vision: true });
    const client = new Client({
      model: 'm',
      baseURL: server.origin,
      api: 'ollama',
      tools: [lookup],
      autoExecuteTools: true,
    });
    await collect(client.run('look'));
    const sent = server.chats[1]?.body.messages ?? [];
    expect(server.chats[1]?.path).toBe('/api/chat');
    expect(sent.at(-2)).toMatchObject({
      role: 'tool',
      tool_name: 'lookup',
      content: 'A tiny image:\n\n[Its image follows in the next message.]',
    });
    expect(sent.at(-1)).toEqual({
      role: 'user',
      content: expect.stringMatching(
        /^Images returned by the tool "lookup" \(call \w+\):$/,
      ) as string,
      images: [PIXEL],
    });
  });

  it.each<FakeKind>(['llama.cpp', 'lmstudio', 'ollama'])(
    '%s with a model that takes no images: the tool message names the image, and no image is sent',
    async (kind) => {
      server = await startContextServer({ kind, model: 'm', window: 8192, vision: false });
      const client = new Client({
        model: 'm',
        baseURL: server.url,
        tools: [lookup],
        autoExecuteTools: true,
      });
      await collect(client.run('look'));
      const sent = server.chats[1]?.body.messages ?? [];
      expect(sent.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'call_1',
        name: 'lookup',
        content:
          'A tiny image:\n\n[image image/png, 0.1 kB: not shown, this model does not take images]',
      });
      expect(JSON.stringify(server.chats[1]?.body)).not.toContain(PIXEL);
    },
  );

  it('counts an image as a fixed number of tokens, not its base64 length', async () => {
    const big: ContentPart[] = [
      { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(400_000)}` } },
    ];
    const backend = scriptedBackend([{ toolCalls: [{ name: 'shot', input: {} }] }, { text: 'ok' }]);
    const shot = tool({
      name: 'shot',
      description: 'Screenshot',
      input: z.object({}),
      execute: () => big,
    });
    const client = new Client({
      model: 'scripted',
      backend,
      tools: [shot],
      autoExecuteTools: true,
      contextWindow: 8192,
    });
    const events = await collect(client.run('take one'));
    // 400 kB of base64 at 4 characters a token would be 100,000 tokens: it fits 8,192 as an image.
    expect(events.some((event) => event.type === 'context_trimmed')).toBe(false);
    expect(backend.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user' });
  });
});
