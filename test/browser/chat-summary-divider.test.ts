import { expect, test } from 'vitest';
import {
  Client,
  memoryHistory,
  scriptedBackend,
  summariesFor,
  type ChatBackend,
  type ChatRequest,
  type ScriptedTurn,
} from '../../src/index.js';
import { mountChat, screenshotsOf } from './fixtures/chat-page.js';

// The "Summarised N earlier messages" divider of a conversation compacted by contextPolicy:
// 'summarize', with the originals above it.

/** A model that answers by rules, and writes `Summary: …` when asked for a summary. */
function respond(request: ChatRequest): ScriptedTurn {
  const first = request.messages[0];
  if (first?.role === 'system' && first.content.startsWith('You summarise'))
    return {
      text: 'The user asked about rivers of Europe one by one; the assistant described each (length, source, mouth) and kept a running list.',
    };
  const prompt = request.messages.filter((message) => message.role === 'user').at(-1);
  return {
    text: `Here is what I know about ${typeof prompt?.content === 'string' ? prompt.content.slice(0, 30) : ''}: it is long and it flows to the sea, past many towns, bridges, vineyards and old castles that travellers like to visit in summer.`,
  };
}

test('a compacted conversation shows the divider above the kept turns; it opens to the summary', async () => {
  const history = memoryHistory();
  const backend = scriptedBackend([], { respond });
  const options = {
    model: 'scripted',
    backend,
    history,
    conversationId: 'long',
    contextWindow: 1024,
    maxTokens: 128,
    contextPolicy: 'summarize' as const,
  };
  const client = new Client(options);
  const rivers = [
    'the Danube',
    'the Rhine',
    'the Loire',
    'the Elbe',
    'the Vistula',
    'the Oder',
    'the Seine',
    'the Po',
    'the Ebro',
    'the Tagus',
    'the Thames',
    'the Shannon',
    'the Dnieper',
    'the Volga',
    'the Rhône',
    'the Douro',
  ];
  for (const river of rivers)
    for await (const _ of client.run(`Tell me about ${river}, in a few sentences please.`)) void _;
  const summary = (await summariesFor(client.history, client.summaries)).at(-1);
  expect(summary).toBeDefined();
  await client.close();

  const { chat, root } = mountChat({ backend, history, conversationId: 'long' });
  const divider = () => root.querySelector<HTMLDetailsElement>('[part~="summary-divider"]');
  await expect
    .poll(() => divider()?.textContent ?? '')
    .toContain(`Summarised ${summary?.covers} earlier messages`);
  // Above the first prompt it does not cover; every original still shown above it.
  const articles = [...root.querySelectorAll('article.user')];
  const users = client.history
    .slice(0, summary?.covers)
    .filter((message) => message.role === 'user').length;
  expect(articles[users]?.previousElementSibling).toBe(divider());
  expect(articles[0]?.textContent).toContain('the Danube');
  expect(divider()?.open).toBe(false);
  root.querySelector<HTMLElement>('[part~="summary-divider-label"]')?.click();
  await expect.poll(() => divider()?.open).toBe(true);
  expect(root.querySelector('[part~="summary-text"]')?.textContent).toBe(summary?.text);

  await screenshotsOf(chat, 'summary-divider', () =>
    divider()?.scrollIntoView({ block: 'center' }),
  );
});

test('the divider appears when the compaction happens, while the answer is still on its way', async () => {
  const history = memoryHistory();
  const scripted = scriptedBackend([], { respond });
  // The stored conversation was written with a wide window: nothing summarised yet.
  const writer = new Client({
    model: 'scripted',
    backend: scripted,
    history,
    conversationId: 'growing',
    contextWindow: 32_768,
  });
  const stored = ['the Danube', 'the Rhine', 'the Loire', 'the Elbe', 'the Vistula', 'the Seine'];
  for (const river of [...stored, 'the Po', 'the Ebro'])
    for await (const _ of writer.run(`Tell me about ${river}, in a few sentences please.`)) void _;
  await writer.close();
  // The page's chat: a small window, so its first request is compacted; the answer's request
  // waits until the test lets it go.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const backend: ChatBackend = {
    chat: {
      completions: {
        create: async (request, options) => {
          const first = request.messages[0];
          const summary = first?.role === 'system' && first.content.startsWith('You summarise');
          if (!summary) await released;
          return scripted.chat.completions.create(request, options);
        },
      },
    },
  };
  const { chat, root } = mountChat({
    backend,
    history,
    conversationId: 'growing',
    setup: (element) =>
      (element.options = { contextWindow: 600, maxTokens: 64, contextPolicy: 'summarize' }),
  });
  await expect.poll(() => root.querySelectorAll('article.user').length).toBe(8);
  const run = chat.send('Tell me about the Oder, in a few sentences please.');
  await expect
    .poll(() => root.querySelector('[part~="summary-divider"]')?.textContent ?? '')
    .toMatch(/Summarised \d+ earlier messages/);
  release();
  expect(await run).toBe(true);
  expect(root.querySelector('[part~="summary-divider"]')).not.toBeNull();
});
