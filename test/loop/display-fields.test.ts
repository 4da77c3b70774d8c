import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseConversationFile,
  serializeConversation,
} from '../../src/history/conversation-file.js';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { memoryHistory } from '../../src/history/memory-history.js';
import { Client } from '../../src/loop/client.js';
import { checkMessages } from '../../src/types/message-schema.js';
import type { ChatBackend } from '../../src/types/chat-request.js';
import type { Message } from '../../src/types/message.js';
import { collect } from '../support/collect.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../support/fake-openai-server.mjs';
import { add, askUser } from './fixtures.js';

// What history keeps only for display (a turn's reasoning, a tool's duration) survives a
// reload and an export, and never reaches a request body.
let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterAll(async () => {
  await server.close();
});

describe('display-only message fields', () => {
  it('stores the reasoning and the tool duration, and sends neither after a reload', async () => {
    server.reset();
    server.enqueue(
      {
        reasoning: 'Adding two numbers.',
        toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 }, id: 'c1' }],
      },
      { reasoning: 'The tool said 3.', text: 'Three.' },
      { text: 'You are welcome.' },
    );
    const history = memoryHistory();
    const options = {
      model: 'fake-model',
      baseURL: server.url,
      tools: [add],
      autoExecuteTools: true,
      history,
      conversationId: 'display',
    };
    await collect(new Client(options).run('1 + 2?'));

    const stored = (await history.load('display'))?.messages ?? [];
    expect(stored[1]).toMatchObject({ role: 'assistant', reasoning: 'Adding two numbers.' });
    expect(stored[2]?.role === 'tool' && typeof stored[2].durationMs).toBe('number');
    expect(stored[3]).toEqual({
      role: 'assistant',
      content: 'Three.',
      reasoning: 'The tool said 3.',
      contextUse: {
        promptTokens: expect.any(Number) as number,
        contextWindow: expect.any(Number) as number,
      },
    });

    const reloaded = new Client(options);
    await reloaded.ready;
    expect(reloaded.history).toEqual(stored);
    await collect(reloaded.run('Thanks'));

    const bodies = server.requests.map((body) => JSON.stringify(body));
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      expect(body).not.toContain('reasoning');
      expect(body).not.toContain('durationMs');
    }
    // The last request still carries the whole conversation, as the model saw it.
    expect(server.requests[2]).toMatchObject({
      messages: [
        { role: 'user', content: '1 + 2?' },
        { role: 'assistant', tool_calls: [{ id: 'c1' }] },
        { role: 'tool', tool_call_id: 'c1', content: '3' },
        { role: 'assistant', content: 'Three.' },
        { role: 'user', content: 'Thanks' },
      ],
    });
  });

  it('keeps the duration of a result the caller gives with it', async () => {
    server.reset();
    server.enqueue(
      { toolCalls: [{ name: 'ask_user', arguments: { question: 'Name?' }, id: 'q1' }] },
      { text: 'Hi Ada.' },
    );
    const client = new Client({ model: 'fake-model', baseURL: server.url, tools: [askUser] });
    await collect(client.run('Greet me'));

    client.addToolResult('q1', 'Ada', { durationMs: 1234 });
    client.continue();
    await collect(client.receiveMessages());

    expect(client.history[2]).toEqual({
      role: 'tool',
      tool_call_id: 'q1',
      name: 'ask_user',
      content: 'Ada',
      durationMs: 1234,
    });
    expect(JSON.stringify(server.requests[1])).not.toContain('durationMs');
  });

  it('sends a message without its display fields as the same object every call (context fitting compares by identity)', async () => {
    const scripted = scriptedBackend([
      { reasoning: 'Add.', toolCalls: [{ name: 'add', input: { a: 1, b: 2 }, id: 'c1' }] },
      { text: 'Three.' },
      { text: 'Bye.' },
    ]);
    // The scripted backend records copies: this one keeps the messages as they were sent.
    const sent: Message[][] = [];
    const backend: ChatBackend = {
      chat: {
        completions: {
          create: (request, options) => {
            sent.push(request.messages);
            return scripted.chat.completions.create(request, options);
          },
        },
      },
    };
    const client = new Client({ model: 'm', backend, tools: [add], autoExecuteTools: true });
    await collect(client.run('1 + 2?'));
    await collect(client.run('Thanks'));

    const [, second, third] = sent;
    expect(second?.[1]).not.toHaveProperty('reasoning');
    expect(second?.[2]).not.toHaveProperty('durationMs');
    expect(third?.[1]).toBe(second?.[1]);
    expect(third?.[2]).toBe(second?.[2]);
  });

  it('survives an export and an import, and a reader of stored data keeps them', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: null,
        reasoning: 'Look it up.',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'add', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', name: 'add', content: '3', durationMs: 42 },
      {
        role: 'assistant',
        content: 'Three.',
        reasoning: 'Done.',
        contextUse: { promptTokens: 80, contextWindow: 4096 },
      },
      { role: 'user', content: 'More' },
      { role: 'assistant', content: 'Cut', stopped: true },
    ];
    const file = parseConversationFile(
      serializeConversation({ id: 'x', title: 'Hi', messages, createdAt: 1, updatedAt: 2 }),
    );
    expect(file.messages).toEqual(messages);
    expect(checkMessages(messages)).toEqual({ success: true, data: messages });
  });

  it('marks a stopped answer and stores what the request used of the window, and sends neither', async () => {
    server.reset();
    server.enqueue(
      { text: 'All of it.', usage: { promptTokens: 120, completionTokens: 3 } },
      { text: 'The first half of', hang: true },
      { text: 'Again.' },
    );
    const history = memoryHistory();
    const options = {
      model: 'fake-model',
      baseURL: server.url,
      contextWindow: 4096,
      history,
      conversationId: 'stopped',
    };
    const client = new Client(options);
    await collect(client.run('Tell me'));
    const controller = new AbortController();
    for await (const event of client.run('And more', { signal: controller.signal })) {
      if (event.type === 'text') controller.abort();
    }

    const stored = (await history.load('stopped'))?.messages ?? [];
    expect(stored[1]).toEqual({
      role: 'assistant',
      content: 'All of it.',
      contextUse: { promptTokens: 120, contextWindow: 4096 },
    });
    expect(stored[3]).toMatchObject({ role: 'assistant', stopped: true });

    const reloaded = new Client(options);
    await reloaded.ready;
    expect(reloaded.history).toEqual(stored);
    await collect(reloaded.run('Go on'));
    const last = JSON.stringify(server.requests.at(-1));
    expect(last).toContain('The first half of');
    expect(last).not.toContain('stopped');
    expect(last).not.toContain('contextUse');
  });

  it('stores an answer stopped before its first word empty and marked, and never sends it', async () => {
    const backend = scriptedBackend([{ hang: true }, { text: 'Once.' }]);
    const history = memoryHistory();
    const options = { model: 'm', backend, history, conversationId: 'early-stop' };
    const client = new Client(options);
    const controller = new AbortController();
    const running = collect(client.run('Tell me', { signal: controller.signal }));
    await expect.poll(() => backend.requests.length).toBe(1);
    controller.abort();
    await running;

    const stored = (await history.load('early-stop'))?.messages ?? [];
    expect(stored).toEqual([
      { role: 'user', content: 'Tell me' },
      { role: 'assistant', content: '', stopped: true },
    ]);
    const reloaded = new Client(options);
    await reloaded.ready;
    await collect(reloaded.run('Go on'));
    expect(backend.requests[1]?.messages).toEqual([
      { role: 'user', content: 'Tell me' },
      { role: 'user', content: 'Go on' },
    ]);
  });

  it('refuses display fields of the wrong type', () => {
    for (const assistant of [
      { stopped: false },
      { stopped: 'yes' },
      { contextUse: { promptTokens: -1, contextWindow: 4096 } },
      { contextUse: { promptTokens: 10, contextWindow: 0 } },
      { contextUse: { promptTokens: 10 } },
      { contextUse: '10 / 4096' },
    ])
      expect(checkMessages([{ role: 'assistant', content: 'x', ...assistant }]).success).toBe(
        false,
      );
    const stored = [{ role: 'tool', tool_call_id: 'c', content: '3', durationMs: '12 ms' }];
    expect(checkMessages(stored).success).toBe(false);
    expect(checkMessages([{ role: 'assistant', content: 'x', reasoning: 5 }]).success).toBe(false);
  });
});
