import { afterEach, expect, test } from 'vitest';
import { z } from 'zod';
import '../../components/index.js';
import type { AgentChat } from '../../components/index.js';
import type { ChatStrings } from '../../components/strings/chat-strings.js';
import {
  memoryHistory,
  scriptedBackend,
  tool,
  type HistoryStore,
  type ScriptedResponse,
} from '../../src/index.js';

// Texts the element writes itself (into tool cards, the banner, an answer's controls) follow
// its `strings`, like its labels do.

const french: Partial<ChatStrings> = {
  JSON: 'JSON (données)',
  Copy: 'Copier',
  'Show more ({n} more characters)': 'Afficher plus ({n} caractères de plus)',
  'Skipped: a new message was sent': 'Ignoré : un nouveau message a été envoyé',
  'The last answer was interrupted. Retry asks the model again.':
    'La dernière réponse a été interrompue.',
};

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

function mount(
  history: HistoryStore,
  turns: ScriptedResponse[],
  setup: (chat: AgentChat) => void = () => undefined,
): AgentChat {
  const chat = document.createElement('agent-chat');
  chat.style.height = '480px';
  chat.model = 'scripted';
  chat.backend = scriptedBackend(turns);
  chat.history = history;
  chat.conversationId = 'c';
  chat.strings = french;
  setup(chat);
  document.body.append(chat);
  mounted.push(chat);
  return chat;
}

const root = (chat: AgentChat) => chat.shadowRoot as ShadowRoot;
const text = (chat: AgentChat, selector: string) =>
  (root(chat).querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim();

test("a JSON answer's bar and a long answer's Show more are in the element's language", async () => {
  const long = `${'word '.repeat(7_000)}end`;
  const chat = mount(memoryHistory(), [{ text: '{"city":"Lyon"}' }, { text: long }], (element) => {
    element.options = { responseFormat: { schema: { type: 'object' }, name: 'answer' } };
  });
  expect(await chat.send('Trip?')).toBe(true);
  expect(text(chat, 'details.json summary')).toBe('JSON (données) Copier');

  chat.options = {};
  expect(await chat.send('Long?')).toBe(true);
  await expect
    .poll(() => text(chat, '[part~="show-more-button"]'))
    .toMatch(/^Afficher plus \([\d\s\u202f,.]+ caractères de plus\)$/);
});

test('the banner of an interrupted answer, and a tool card a new message skipped', async () => {
  const history = memoryHistory();
  await history.append('c', [{ role: 'user', content: 'Tell me a story' }]);
  const interrupted = mount(history, []);
  await expect
    .poll(() => text(interrupted, '[role="alert"]'))
    .toContain('La dernière réponse a été interrompue.');

  // A call left waiting when a new message is sent is skipped, and its card says so.
  const ask = tool({ name: 'ask_user', description: 'Asks the user', input: z.object({}) });
  const chat = mount(
    memoryHistory(),
    [{ toolCalls: [{ name: 'ask_user', input: {} }] }, { text: 'Fine.' }],
    (element) => {
      element.conversationId = 'skip';
      element.autoExecute = false;
      element.tools = [ask];
    },
  );
  await chat.send('Ask me');
  await expect.poll(() => root(chat).querySelector('[part~="skip-button"]')).not.toBeNull();
  await chat.send('Never mind');
  await expect
    .poll(() => text(chat, '[part~="tool-error"]'))
    .toBe('Ignoré : un nouveau message a été envoyé');
});
