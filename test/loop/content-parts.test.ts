import { describe, expect, it } from 'vitest';
import { toOllamaRequest } from '../../src/backend/ollama-request.js';
import { memoryHistory } from '../../src/history/memory-history.js';
import { Client } from '../../src/loop/client.js';
import { query } from '../../src/loop/query.js';
import type { ContentPart } from '../../src/types/message.js';
import { collect } from '../support/collect.js';
import { fakeFetch, ndjsonResponse, sseBody, sseResponse } from '../support/fake-fetch.js';

const PIXEL = 'data:image/png;base64,iVBORw0KGgo=';
const parts: ContentPart[] = [
  { type: 'text', text: 'What is in this picture?' },
  { type: 'image_url', image_url: { url: PIXEL } },
];
const answer = () =>
  sseResponse(
    sseBody([
      { choices: [{ index: 0, delta: { content: 'A cat.' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ]),
  );

describe('user content with images (ContentPart[])', () => {
  it('query() sends the parts unchanged to an OpenAI-compatible server', async () => {
    const fake = fakeFetch([answer()]);
    await collect(
      query(parts, {
        model: 'llava',
        baseURL: 'http://localhost:11434/v1',
        fetch: fake.fetch,
        contextWindow: 32_768,
      }),
    );
    expect(fake.requests[0]?.body).toMatchObject({ messages: [{ role: 'user', content: parts }] });
  });

  it('Client.run() keeps the parts in history and sends them again on the next turn', async () => {
    const fake = fakeFetch([answer(), answer()]);
    const client = new Client({
      model: 'llava',
      baseURL: 'http://x/v1',
      fetch: fake.fetch,
      contextWindow: 32_768,
    });
    await collect(client.run(parts));
    await collect(client.run('And its colour?'));
    expect(client.history[0]).toEqual({ role: 'user', content: parts });
    expect((fake.requests[1]?.body as { messages: unknown[] }).messages[0]).toEqual({
      role: 'user',
      content: parts,
    });
  });

  it('Ollama native: text in content, base64 without the data-URL prefix in images', () => {
    const body = toOllamaRequest({
      model: 'llava',
      stream: true,
      messages: [{ role: 'user', content: parts }],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: 'What is in this picture?', images: ['iVBORw0KGgo='] },
    ]);
  });

  it('Ollama native request body from Client.run()', async () => {
    const fake = fakeFetch([
      ndjsonResponse([
        { model: 'llava', message: { role: 'assistant', content: 'A cat.' }, done: false },
        {
          model: 'llava',
          message: { role: 'assistant', content: '' },
          done: true,
          done_reason: 'stop',
        },
      ]),
    ]);
    const client = new Client({
      model: 'llava',
      baseURL: 'http://localhost:11434',
      api: 'ollama',
      fetch: fake.fetch,
      contextWindow: 32_768,
    });
    await collect(client.run(parts));
    expect(fake.requests[0]?.body).toMatchObject({
      messages: [{ role: 'user', content: 'What is in this picture?', images: ['iVBORw0KGgo='] }],
    });
  });

  it('UserPromptSubmit sees the text and the parts; a rewrite keeps the images', async () => {
    const fake = fakeFetch([answer()]);
    const seen: unknown[] = [];
    const client = new Client({
      model: 'llava',
      baseURL: 'http://x/v1',
      fetch: fake.fetch,
      contextWindow: 32_768,
      hooks: {
        UserPromptSubmit: [
          (input) => {
            seen.push(input);
            return { prompt: input.prompt.toUpperCase() };
          },
        ],
      },
    });
    await collect(client.run(parts));
    expect(seen).toEqual([{ prompt: 'What is in this picture?', content: parts }]);
    expect(client.history[0]?.content).toEqual([
      { type: 'text', text: 'WHAT IS IN THIS PICTURE?' },
      { type: 'image_url', image_url: { url: PIXEL } },
    ]);
  });

  it('a conversation with images exports and imports', async () => {
    const store = memoryHistory();
    await store.append('c1', [
      { role: 'user', content: parts },
      { role: 'assistant', content: 'A cat.' },
    ]);
    const id = await store.importConversation(await store.exportConversation('c1'), { id: 'c2' });
    const loaded = await store.load(id);
    expect(loaded?.messages[0]).toEqual({ role: 'user', content: parts });
    expect(loaded?.title).toBe('What is in this picture?');
  });
});

describe('stored user content is checked', () => {
  it('refuses a part that is not a text or image part', async () => {
    const store = memoryHistory();
    const file = JSON.stringify({
      format: 'open-agent-conversation',
      version: 1,
      id: 'x',
      title: 't',
      createdAt: 1,
      updatedAt: 1,
      messages: [{ role: 'user', content: ['just a string'] }],
    });
    await expect(store.importConversation(file)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});
