import { afterEach, expect, test } from 'vitest';
import '../../components/index.js';
import type { AgentChat } from '../../components/index.js';
import { z } from 'zod';
import {
  memoryHistory,
  scriptedBackend,
  tool,
  type HistoryStore,
  type ScriptedResponse,
} from '../../src/index.js';

// What a reloaded conversation shows, and the controls around it.

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

function mount(history: HistoryStore, turns: ScriptedResponse[]) {
  const backend = scriptedBackend(turns);
  const chat = document.createElement('agent-chat');
  chat.style.height = '480px';
  chat.model = 'scripted';
  chat.backend = backend;
  chat.history = history;
  chat.conversationId = 'c';
  document.body.append(chat);
  mounted.push(chat);
  return { chat, backend };
}

const root = (chat: AgentChat) => chat.shadowRoot as ShadowRoot;
const text = (chat: AgentChat, selector: string) =>
  (root(chat).querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim();

test('a prompt whose answer a reload cut off is marked interrupted, and Retry answers it', async () => {
  const history = memoryHistory();
  // What a reload mid-stream leaves: the prompt is stored, its answer never was.
  await history.append('c', [{ role: 'user', content: 'Tell me a story' }]);

  const { chat, backend } = mount(history, [{ text: 'Once upon a time.' }]);

  await expect.poll(() => text(chat, 'article.assistant [part~="note"]')).toContain('interrupted');
  expect(text(chat, '[role="alert"]')).toContain('interrupted');
  root(chat).querySelector<HTMLButtonElement>('[part~="retry-button"]')?.click();

  await expect.poll(() => text(chat, 'article.assistant')).toContain('Once upon a time.');
  expect(text(chat, 'article.assistant')).not.toContain('interrupted');
  expect(root(chat).querySelectorAll('article.assistant')).toHaveLength(1);
  expect(backend.requests[0]?.messages.filter((message) => message.role === 'user')).toHaveLength(
    1,
  );
});

test('a reloaded conversation shows its reasoning and how long its tool ran, as it did live', async () => {
  const history = memoryHistory();
  const slow = tool({
    name: 'slow_add',
    description: 'Adds, slowly',
    input: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return a + b;
    },
  });
  const turns: ScriptedResponse[] = [
    {
      reasoning: 'I should call the tool.',
      toolCalls: [{ name: 'slow_add', input: { a: 1, b: 2 } }],
    },
    { reasoning: 'The tool said 3.', text: 'It is 3.' },
  ];
  const live = mount(history, turns);
  live.chat.tools = [slow];
  void live.chat.send('1 + 2?');
  await expect.poll(() => text(live.chat, 'article.assistant')).toContain('It is 3.');
  const duration = (chat: AgentChat) => text(chat, '[part~="tool-status"] .muted');
  const reasoning = (chat: AgentChat) =>
    [...root(chat).querySelectorAll('[part~="reasoning"]')].map((part) =>
      part.textContent.replace(/\s+/g, ' ').trim(),
    );
  const liveDuration = duration(live.chat);
  expect(liveDuration).toMatch(/\d+ ms/);
  expect(reasoning(live.chat)).toHaveLength(2);
  live.chat.remove();

  const { chat } = mount(history, []);
  await expect.poll(() => text(chat, 'article.assistant')).toContain('It is 3.');
  expect(reasoning(chat)).toEqual([
    expect.stringContaining('I should call the tool.'),
    expect.stringContaining('The tool said 3.'),
  ]);
  expect(duration(chat)).toMatch(/^\d+ ms$/);
});

test('a reloaded tool card says how long the tool ran, the same as it said live', async () => {
  const history = memoryHistory();
  const add = tool({
    name: 'add',
    description: 'Adds',
    input: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  });
  const turns: ScriptedResponse[] = [
    { toolCalls: [{ name: 'add', input: { a: 1, b: 2 } }] },
    { text: 'It is 3.' },
  ];
  const live = mount(history, turns);
  live.chat.tools = [add];
  // Time before the tool runs (a hook deciding on it; with a server, the rest of the answer
  // streaming in) is not the tool's: the card counted it live, the stored duration does not.
  live.chat.options = {
    hooks: {
      PreToolUse: [
        () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 60)),
      ],
    },
  };
  void live.chat.send('1 + 2?');
  await expect.poll(() => text(live.chat, 'article.assistant')).toContain('It is 3.');
  const duration = (chat: AgentChat) => text(chat, '[part~="tool-status"] .muted');
  const liveDuration = duration(live.chat);
  live.chat.remove();

  const { chat } = mount(history, []);
  await expect.poll(() => text(chat, 'article.assistant')).toContain('It is 3.');
  expect(duration(chat)).toBe(liveDuration);
  expect(liveDuration).toMatch(/^\d ms$/);
});

test('one button starts a new conversation: the side list has no second "New"', async () => {
  const { chat } = mount(memoryHistory(), []);
  chat.sidebarOpen = true;
  await chat.updateComplete;
  const list = root(chat).querySelector('agent-conversations');
  await list?.updateComplete;

  const labels = [root(chat), list?.shadowRoot]
    .flatMap((scope) => [...(scope?.querySelectorAll('button') ?? [])])
    .map((button) => button.textContent.trim());
  expect(labels.filter((label) => /^New/.test(label))).toEqual(['New chat']);
});

test('buttons carry SVG icons, no symbol a font may lack (the trash emoji showed as a box)', async () => {
  const history = memoryHistory();
  await history.append('c', [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello.' },
  ]);
  const { chat } = mount(history, []);
  chat.sidebarOpen = true;
  await expect
    .poll(
      () =>
        root(chat).querySelector('agent-conversations')?.shadowRoot?.querySelectorAll('li button')
          .length ?? 0,
    )
    .toBeGreaterThan(0);
  const list = root(chat).querySelector('agent-conversations');

  const buttons = [root(chat), list?.shadowRoot].flatMap((scope) => [
    ...(scope?.querySelectorAll('button') ?? []),
  ]);
  const symbols = buttons
    .map((button) => button.textContent)
    .join('')
    .match(/[\u2190-\u2bff\u{1f000}-\u{1faff}]/gu);
  expect(symbols).toBeNull();
  expect(list?.shadowRoot?.querySelector('button[title="Delete"] svg')).not.toBeNull();
  expect(root(chat).querySelector('[part~="sidebar-button"] svg')).not.toBeNull();
});

test('a stopped answer still says "Stopped." after a reload, so a cut-off answer does not look complete', async () => {
  const history = memoryHistory();
  const live = mount(history, [{ text: 'The first half of', hang: true }]);
  void live.chat.send('Tell me a story');
  await expect.poll(() => text(live.chat, 'article.assistant')).toContain('The first half of');
  live.chat.stop();
  await expect.poll(() => text(live.chat, 'article.assistant [part~="note"]')).toBe('Stopped.');
  live.chat.remove();

  const { chat } = mount(history, []);
  await expect.poll(() => text(chat, 'article.assistant')).toContain('The first half of');
  expect(text(chat, 'article.assistant [part~="note"]')).toBe('Stopped.');
});

test('an answer stopped while its tool ran still says "Stopped." after a reload', async () => {
  const history = memoryHistory();
  const wait = tool({
    name: 'wait',
    description: 'Waits until stopped',
    input: z.object({}),
    execute: (_input, { signal }) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(new Error('stopped')));
      }),
  });
  const live = mount(history, [{ toolCalls: [{ name: 'wait', input: {} }] }]);
  live.chat.tools = [wait];
  void live.chat.send('Wait');
  await expect.poll(() => text(live.chat, '[part~="tool-status"]')).not.toBe('');
  live.chat.stop();
  await expect.poll(() => text(live.chat, 'article.assistant [part~="note"]')).toBe('Stopped.');
  live.chat.remove();

  const { chat } = mount(history, []);
  await expect.poll(() => text(chat, 'article.assistant')).toContain('wait');
  expect(text(chat, 'article.assistant [part~="note"]')).toBe('Stopped.');
});

test('an answer stopped before its first word still says "Stopped." after a reload, and nothing empty is sent next', async () => {
  const history = memoryHistory();
  const live = mount(history, [{ hang: true }]);
  void live.chat.send('Tell me a story');
  await expect.poll(() => root(live.chat).querySelector('article.assistant')).not.toBeNull();
  live.chat.stop();
  await expect.poll(() => text(live.chat, 'article.assistant [part~="note"]')).toBe('Stopped.');
  live.chat.remove();

  const { chat, backend } = mount(history, [{ text: 'Once upon a time.' }]);
  await expect.poll(() => text(chat, 'article.user')).toContain('Tell me a story');
  await expect.poll(() => text(chat, 'article.assistant [part~="note"]')).toBe('Stopped.');
  expect(text(chat, 'article.assistant')).not.toContain('interrupted');

  // The next turn's request carries no empty assistant message (some servers reject one).
  expect(await chat.send('Go on')).toBe(true);
  const sent = backend.requests[0]?.messages ?? [];
  expect(sent.map((message) => message.role)).toEqual(['user', 'user']);
});

test('a completed answer shows no "Stopped." after a reload', async () => {
  const history = memoryHistory();
  const live = mount(history, [{ text: 'All of it.' }]);
  expect(await live.chat.send('Tell me')).toBe(true);
  live.chat.remove();

  const { chat } = mount(history, []);
  await expect.poll(() => text(chat, 'article.assistant')).toContain('All of it.');
  expect(root(chat).querySelector('article.assistant [part~="note"]')).toBeNull();
});

test('the context meter shows the same figures after a reload', async () => {
  const history = memoryHistory();
  const live = mount(history, [
    { text: 'first', usage: { promptTokens: 1234, completionTokens: 5 } },
  ]);
  live.chat.options = { contextWindow: 8192, maxTokens: 256 };
  expect(await live.chat.send('hello')).toBe(true);
  await live.chat.updateComplete;
  const meter = (chat: AgentChat) => text(chat, '[part="context-meter"]');
  expect(meter(live.chat)).toBe('1.2K / 8.2K tokens');
  live.chat.remove();

  const { chat } = mount(history, []);
  chat.options = { contextWindow: 8192, maxTokens: 256 };
  await expect.poll(() => text(chat, 'article.assistant')).toContain('first');
  await chat.updateComplete;
  expect(meter(chat)).toBe('1.2K / 8.2K tokens');
  expect(root(chat).querySelector<HTMLMeterElement>('[part="context-meter"] meter')?.value).toBe(
    1234,
  );
});
