import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../support/fake-openai-server.mjs';
import { collect } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';

// The loop over real HTTP: Node's fetch against the fake OpenAI-compatible server.
let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterAll(async () => {
  await server.close();
});

const weather = tool({
  name: 'get_weather',
  description: 'Weather for a city',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: 21 }),
});

describe('Client against the fake HTTP server', () => {
  it('runs a tool round over real HTTP streaming and counts reported usage', async () => {
    server.reset();
    server.enqueue(
      {
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' }, id: 'call_w1' }],
        usage: { promptTokens: 40, completionTokens: 9 },
        delayMs: 2,
      },
      {
        text: 'It is 21 °C in Oslo.',
        usage: { promptTokens: 60, completionTokens: 8 },
        delayMs: 2,
      },
    );
    const client = new Client({
      model: 'fake-model',
      baseURL: server.url,
      tools: [weather],
      autoExecuteTools: true,
    });
    const events = await collect(client.run('Weather in Oslo?'));
    expect(
      events
        .filter((event) => event.type === 'text')
        .map((event) => event.type === 'text' && event.text)
        .join(''),
    ).toBe('It is 21 °C in Oslo.');
    expect(events.at(-1)).toMatchObject({
      status: 'completed',
      usage: { promptTokens: 100, completionTokens: 17, totalTokens: 117 },
    });
    expect(server.requests).toHaveLength(2);
    expect((server.requests[1] as { messages: unknown[] }).messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_w1',
      name: 'get_weather',
      content: '{"city":"Oslo","celsius":21}',
    });
    expect(server.errors).toEqual([]);
    assertHistoryConsistent(client.history);
  });

  it('aborts a hanging stream: done cancelled, partial text kept, the connection closed', async () => {
    server.reset();
    server.enqueue(
      { text: ['Partial ', 'answer'], hang: true, finishReason: null, done: false },
      { text: 'Next prompt works.' },
    );
    const client = new Client({ model: 'fake-model', baseURL: server.url });
    const controller = new AbortController();
    const events = [];
    let text = '';
    for await (const event of client.run('long story', { signal: controller.signal })) {
      events.push(event);
      // The two deltas may arrive in one read, and then as one text event.
      if (event.type === 'text') text += event.text;
      if (text === 'Partial answer') controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    expect(client.history.at(-1)).toEqual({
      role: 'assistant',
      content: 'Partial answer',
      stopped: true,
    });
    await expect.poll(() => server.disconnects).toBe(1);
    expect((await collect(client.run('again'))).at(-1)).toMatchObject({ status: 'completed' });
  });

  it('a consumer that stops reading mid-answer (break) closes the request', async () => {
    server.reset();
    server.enqueue(
      { text: ['Partial ', 'answer'], hang: true, finishReason: null, done: false },
      { text: 'Next prompt works.' },
    );
    const client = new Client({ model: 'fake-model', baseURL: server.url });
    for await (const event of client.run('long story')) if (event.type === 'text') break;
    // The server sees the disconnect (a local server stops generating and frees its slot).
    await expect.poll(() => server.disconnects).toBe(1);
    expect(client.status).toBe('idle');
    expect((await collect(client.run('again'))).at(-1)).toMatchObject({ status: 'completed' });
    expect(client.history.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Next prompt works.',
    });
  });
});
