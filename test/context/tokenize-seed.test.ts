import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/loop/client.js';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { collect } from '../support/collect.js';
import {
  startContextServer,
  type ContextServer,
  type FakeKind,
} from '../support/fake-context-servers.js';

// A conversation reloaded from storage: its first request is already long. The fake servers'
// tokenizer here takes 2 characters a token — denser than the client's 4-characters estimate
// (as code, JSON or CJK text are) — so before any response has calibrated the estimate, only
// the server's /tokenize can tell the client that the conversation no longer fits.
const SYSTEM = 'You are a careful assistant.';

let server: ContextServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A snapshot of 16 exchanges of ~300 characters each way (~2,500 estimated tokens). */
async function longConversation(): Promise<unknown> {
  const backend = scriptedBackend([], {
    respond: (_request, index) => ({
      text: `Answer ${index}: ${'the reply goes on. '.repeat(16)}`,
    }),
  });
  const client = new Client({ model: 'm', backend });
  for (let index = 0; index < 16; index += 1)
    await collect(client.run(`Question ${index}: ${'and one more detail. '.repeat(14)}`));
  return client.snapshot();
}

function reload(snapshot: unknown, url: string): Client {
  return Client.restore(snapshot, {
    model: 'm',
    baseURL: url,
    systemPrompt: SYSTEM,
    maxTokens: 512,
  });
}

describe.each<FakeKind>(['llama.cpp', 'vllm'])('the first request to %s', (kind) => {
  it('is fitted with the scale its /tokenize measured, once per server and model', async () => {
    const snapshot = await longConversation();
    server = await startContextServer({ kind, model: 'm', window: 4096, charsPerToken: 2 });
    const client = reload(snapshot, server.url);
    const trimmed = (await collect(client.run('And now?'))).filter(
      (event) => event.type === 'context_trimmed',
    );
    expect(server.chats.map((chat) => chat.outcome)).toEqual(['answered']);
    // Older turns were left out to fit; what was sent fits the window with room for the answer.
    expect(trimmed).toHaveLength(1);
    expect(server.chats[0]!.promptTokens + 512).toBeLessThanOrEqual(4096);
    expect(server.probes.filter((probe) => probe === 'POST /tokenize')).toHaveLength(1);
    // Another client of the same server and model: the seed is cached, not asked again.
    await collect(reload(snapshot, server.url).run('And then?'));
    expect(server.probes.filter((probe) => probe === 'POST /tokenize')).toHaveLength(1);
  });

  it('without /tokenize, the 4-characters estimate sends it all and the server refuses', async () => {
    const snapshot = await longConversation();
    server = await startContextServer({
      kind,
      model: 'm',
      window: 4096,
      charsPerToken: 2,
      tokenizes: false,
    });
    await expect(collect(reload(snapshot, server.url).run('And now?'))).rejects.toThrow(/context/);
    expect(server.chats.map((chat) => chat.outcome)).toEqual(['refused']);
  });
});

describe.each<FakeKind>(['ollama', 'lmstudio'])('%s, which has no /tokenize', (kind) => {
  it('is not asked to tokenize', async () => {
    server = await startContextServer({ kind, model: 'm', window: 8192 });
    await collect(reload(await longConversation(), server.url).run('And now?'));
    expect(server.chats).toHaveLength(1);
    expect(server.probes.some((probe) => probe.endsWith('/tokenize'))).toBe(false);
  });
});
