import { afterEach, expect, test } from 'vitest';
import '../../components/index.js';
import type { AgentChat } from '../../components/index.js';
import {
  memoryHistory,
  scriptedBackend,
  type HistoryStore,
  type ScriptedResponse,
} from '../../src/index.js';

// A structured answer (`responseFormat`) shows as formatted JSON, live and after a reload.

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer' } },
  required: ['city', 'days'],
};

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

function mount(history: HistoryStore, turns: ScriptedResponse[], structured = true): AgentChat {
  const chat = document.createElement('agent-chat');
  chat.style.height = '480px';
  chat.model = 'scripted';
  chat.backend = scriptedBackend(turns);
  chat.history = history;
  chat.conversationId = 'c';
  if (structured) chat.options = { responseFormat: { schema, name: 'trip' } };
  document.body.append(chat);
  mounted.push(chat);
  return chat;
}

const root = (chat: AgentChat) => chat.shadowRoot as ShadowRoot;

test('the answer shows as formatted, collapsible JSON, not a markdown paragraph', async () => {
  const chat = mount(memoryHistory(), [{ text: ['{"city":', '"Lyon", "da', 'ys": 3}'] }]);
  expect(await chat.send('Plan a trip')).toBe(true);

  const block = root(chat).querySelector<HTMLDetailsElement>('article.assistant details.json');
  expect(block?.open).toBe(true);
  expect(block?.querySelector('pre')?.textContent).toBe('{\n  "city": "Lyon",\n  "days": 3\n}');
  expect(root(chat).querySelector('article.assistant .markdown')).toBeNull();

  // The Copy button in its bar copies; it does not fold the block.
  block?.querySelector<HTMLButtonElement>('button[data-copy]')?.click();
  expect(block?.open).toBe(true);
  block?.querySelector('summary')?.click();
  expect(block?.open).toBe(false);
});

test('a reload shows the stored answer as JSON again', async () => {
  const history = memoryHistory();
  await history.append('c', [
    { role: 'user', content: 'Plan a trip' },
    { role: 'assistant', content: '{"city":"Lyon","days":3}' },
  ]);
  const chat = mount(history, []);
  await expect
    .poll(() => root(chat).querySelector('details.json pre')?.textContent)
    .toBe('{\n  "city": "Lyon",\n  "days": 3\n}');
});

test('without responseFormat, an answer that happens to be JSON stays markdown', async () => {
  const history = memoryHistory();
  await history.append('c', [
    { role: 'user', content: 'Say some JSON' },
    { role: 'assistant', content: '{"a":1}' },
  ]);
  const chat = mount(history, [], false);
  await expect
    .poll(() => root(chat).querySelector('article.assistant')?.textContent ?? '')
    .toContain('{"a":1}');
  expect(root(chat).querySelector('details.json')).toBeNull();
});
