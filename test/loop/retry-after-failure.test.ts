import { describe, expect, it } from 'vitest';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { AgentError } from '../../src/errors/agent-error.js';
import { Client } from '../../src/loop/client.js';
import { collect } from '../support/collect.js';
import { add } from './fixtures.js';

// A response that fails mid-stream leaves its partial answer in history. A retry answers
// again: the partial is never sent as a trailing assistant message (a prefill some servers
// continue and some refuse), nor next to another assistant message (strict templates want
// user and assistant to alternate).

const cutOff = { text: ['Hello', ' wor'], error: new AgentError('STREAM_TRUNCATED', 'cut') };

describe('continue() after a response failed mid-stream', () => {
  it('asks again without the partial answer, and later turns alternate roles', async () => {
    const backend = scriptedBackend([cutOff, { text: 'Hello world!' }, { text: 'Bye.' }]);
    const client = new Client({ model: 'm', backend, systemPrompt: 'Be kind.' });

    await expect(collect(client.run('Hi'))).rejects.toMatchObject({ code: 'STREAM_TRUNCATED' });
    client.continue();
    await collect(client.receiveMessages());
    await collect(client.run('Thanks'));

    expect(client.history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello wor' },
      { role: 'assistant', content: 'Hello world!' },
      { role: 'user', content: 'Thanks' },
      { role: 'assistant', content: 'Bye.' },
    ]);
    expect(backend.requests[1]?.messages).toEqual([
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(backend.requests[2]?.messages).toEqual([
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello world!' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('a stopped answer followed by a new prompt is still sent: the user saw it', async () => {
    const backend = scriptedBackend([{ text: 'Partial', hang: true }, { text: 'Sure.' }]);
    const client = new Client({ model: 'm', backend });
    const controller = new AbortController();

    for await (const event of client.run('Write a poem', { signal: controller.signal }))
      if (event.type === 'text') controller.abort();
    await collect(client.run('Shorter, please'));

    expect(backend.requests[1]?.messages).toEqual([
      { role: 'user', content: 'Write a poem' },
      { role: 'assistant', content: 'Partial' },
      { role: 'user', content: 'Shorter, please' },
    ]);
  });

  it('assistant messages with tool calls are always sent', async () => {
    const backend = scriptedBackend([
      { text: 'Adding.', toolCalls: [{ name: 'add', input: { a: 1, b: 2 } }] },
      { text: 'It is 3.' },
    ]);
    const client = new Client({ model: 'm', backend, tools: [add], autoExecuteTools: true });

    await collect(client.run('1 + 2?'));

    expect(backend.requests[1]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
    ]);
  });
});
