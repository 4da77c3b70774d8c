import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/loop/client.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../support/fake-openai-server.mjs';
import { collect } from '../support/collect.js';

// The fake with a latency profile (time-scaled): a model that loads, a prompt read at a rate,
// one slot. The client sends one request per answer, however long the wait, and says it waits.
const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function slowServer(timeScale: number) {
  const server = await startFakeOpenAIServer({
    latency: {
      loadMs: 70_000,
      promptTokensPerSecond: 100,
      generationTokensPerSecond: 50,
      timeScale,
    },
  });
  servers.push(server);
  return server;
}

describe('a slow local server (time-scaled latency profile)', () => {
  it('a default Client waits out a 70 s load with one POST, saying it waits', async () => {
    const server = await slowServer(0.01); // 70 s → 0.7 s
    server.enqueue({ text: 'Loaded and answering.' });
    const client = new Client({ model: 'fake-model', baseURL: server.url, contextWindow: 8192 });
    const events = await collect(client.run('Hello'));
    expect(
      events
        .filter((event) => event.type === 'text')
        .map((event) => event.type === 'text' && event.text)
        .join(''),
    ).toBe('Loaded and answering.');
    expect(server.requests).toHaveLength(1);
    expect(events.some((event) => event.type === 'waiting')).toBe(true);
    expect(server.latency[0]?.firstTokenMs).toBeGreaterThan(0);
  });

  it('one slot: a second request waits for the first; a client that stops cancels its work', async () => {
    const server = await slowServer(0.01);
    server.enqueue({ text: 'First.' }, { text: 'Second.' });
    const first = new Client({ model: 'fake-model', baseURL: server.url, contextWindow: 8192 });
    const stopped = new AbortController();
    const second = new Client({ model: 'fake-model', baseURL: server.url, contextWindow: 8192 });
    const runs = [
      collect(first.run('One')),
      collect(second.run('Two', { signal: stopped.signal })),
    ];
    // Stopped while queued behind the first (which is loading the model).
    setTimeout(() => stopped.abort(), 200);
    const [one, two] = await Promise.all(runs);
    expect(one?.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
    expect(two?.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    expect(server.latency.map((record) => record.cancelled)).toEqual([false, true]);
  });
});
