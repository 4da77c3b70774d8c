import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/loop/client.js';
import type { AgentEvent } from '../../src/types/events.js';
import { collect } from '../support/collect.js';
import {
  startContextServer,
  type ContextServer,
  type FakeKind,
} from '../support/fake-context-servers.js';

// Issue 25: nothing is asked before the first chat request of a short conversation, and the
// server's window is then asked only at the endpoint of the server its answer showed — a
// working setup sees no failed request (every 404 is a red line in the browser's console).
let server: ContextServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function windows(events: AgentEvent[]): (number | undefined)[] {
  return events.flatMap((event) => (event.type === 'step_end' ? [event.contextWindow] : []));
}

describe.each<FakeKind>(['llama.cpp', 'vllm', 'lmstudio', 'ollama'])('against %s', (kind) => {
  it('sends a short first prompt before anything else, then learns the window without a failed request', async () => {
    server = await startContextServer({ kind, model: 'm', window: 8192 });
    const client = new Client({ model: 'm', baseURL: server.url });
    await collect(client.run('Hello'));
    expect(server.log[0]).toBe('200 POST /v1/chat/completions');
    const second = await collect(client.run('And again'));
    // The window the server reports, learned while the first answer streamed.
    expect(windows(second)).toEqual([8192]);
    expect(server.log.filter((line) => !line.startsWith('200 '))).toEqual([]);
    expect(server.chats).toHaveLength(2);
  });

  it('asks for the window before a long first prompt, without a failed request', async () => {
    server = await startContextServer({ kind, model: 'm', window: 8192 });
    const client = new Client({ model: 'm', baseURL: server.url });
    const events = await collect(client.run(`Summarise: ${'a long document. '.repeat(700)}`));
    expect(windows(events)).toEqual([8192]);
    expect(server.log.at(-1)).toBe('200 POST /v1/chat/completions');
    expect(server.log.filter((line) => !line.startsWith('200 '))).toEqual([]);
  });
});

describe("Ollama's native API", () => {
  it('sends a short first prompt first and asks only Ollama for the window', async () => {
    server = await startContextServer({ kind: 'ollama', model: 'm', window: 8192 });
    const client = new Client({ model: 'm', baseURL: server.url, api: 'ollama' });
    await collect(client.run('Hello'));
    expect(server.log[0]).toBe('200 POST /api/chat');
    await collect(client.run('And again'));
    expect(server.log.filter((line) => !line.startsWith('200 '))).toEqual([]);
    expect(server.probes.every((probe) => probe.includes('/api/'))).toBe(true);
  });
});
