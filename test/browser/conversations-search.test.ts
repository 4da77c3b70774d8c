import { expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { memoryHistory, scriptedBackend, type Message } from '../../src/index.js';
import { mountChat, screenshotsOf } from './fixtures/chat-page.js';

// The search box of <agent-conversations> inside <agent-chat>: highlighted snippets, and a
// result that opens its conversation at the message that matched.

async function storeWithConversations() {
  const history = memoryHistory();
  const topics = ['Trip to Zürich', 'Bread recipes', 'Fixing the bike', 'Garden planning'];
  for (const [number, topic] of topics.entries()) {
    const messages: Message[] = [];
    for (let index = 0; index < 80; index += 1) {
      const text =
        number === 1 && index === 30
          ? 'For a crème brûlée you need cream, sugar and egg yolks; the crème must not boil.'
          : `${topic}, step ${index}: some ordinary words about ${topic.toLowerCase()} and the weather.`;
      messages.push(
        index % 2 === 0 ? { role: 'user', content: text } : { role: 'assistant', content: text },
      );
    }
    await history.append(`c${number}`, messages);
  }
  return history;
}

test('typing finds messages of every conversation, marks the words, and opens the conversation at the message', async () => {
  const history = await storeWithConversations();
  const { chat, root } = mountChat({
    backend: scriptedBackend([]),
    history,
    conversationId: 'c3',
    setup: (element) => (element.sidebarOpen = true),
  });
  const list = () =>
    root.querySelector('agent-conversations')?.shadowRoot as ShadowRoot | undefined;
  await expect.poll(() => list()?.querySelector('input[type="search"]')).toBeTruthy();
  const input = list()?.querySelector<HTMLInputElement>('input[type="search"]') as HTMLInputElement;
  // The box's parts reach the page through <agent-chat> (added to its side list's exportparts
  // by the box's own chunk): a page's ::part(search-input) rule styles it.
  const style = document.createElement('style');
  style.textContent = 'agent-chat::part(search-input) { outline: 3px solid rgb(1, 2, 3); }';
  document.head.append(style);
  await expect.poll(() => getComputedStyle(input).outlineColor).toBe('rgb(1, 2, 3)');
  style.remove();
  input.value = 'CREME brulee';
  input.dispatchEvent(new Event('input'));

  await expect.poll(() => list()?.querySelectorAll('[part~="search-result"]').length).toBe(1);
  const result = list()?.querySelector('[part~="search-result"]') as HTMLElement;
  expect(result.textContent).toContain('Bread recipes');
  expect([...result.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
    'crème',
    'brûlée',
    'crème',
  ]);

  await screenshotsOf(chat, 'conversation-search');
  await page.viewport(1280, 800);
  chat.style.height = '700px';

  result.click();
  await expect.poll(() => chat.conversationId).toBe('c1');
  // Message 30 is the 16th prompt: it is rendered (earlier than the 40 entries first shown) and scrolled into view.
  await expect
    .poll(() => root.querySelector('article[data-found]')?.textContent ?? '')
    .toContain('crème brûlée');
  const found = root.querySelector('article[data-found]') as HTMLElement;
  const log = root.querySelector('[part~="log"]') as HTMLElement;
  const box = found.getBoundingClientRect();
  const view = log.getBoundingClientRect();
  expect(box.top).toBeGreaterThanOrEqual(view.top);
  expect(box.bottom).toBeLessThanOrEqual(view.bottom);
  await page.screenshot({
    path: '../../test-results/conversation-search/opened-at-message.png',
    element: chat,
  });
});

test('the search box loads with the list, and its first key typed searches', async () => {
  const history = await storeWithConversations();
  const list = document.createElement('agent-conversations');
  list.store = history;
  document.body.append(list);
  try {
    const root = list.shadowRoot as ShadowRoot;
    // Its code is not in the page's first load (test/size): it loads beside the list's first
    // read, and the box comes with the list's items.
    await expect.poll(() => root.querySelector('input[type="search"]')).toBeTruthy();
    expect(root.querySelectorAll('[part~="conversation"]').length).toBe(4);
    const input = root.querySelector<HTMLInputElement>('input[type="search"]') as HTMLInputElement;
    await userEvent.type(input, 'z');
    expect(input.value).toBe('z');
    await expect
      .poll(() => root.querySelectorAll('[part~="search-result"]').length)
      .toBeGreaterThan(0);
    const titles = [...root.querySelectorAll('[part~="search-result"] .title')].map(
      (title) => title.textContent,
    );
    expect(new Set(titles)).toEqual(new Set([titles[0]]));
    expect(titles[0]).toContain('Zürich');
    expect(root.querySelector('mark')?.textContent?.toLowerCase()).toBe('z');
  } finally {
    list.remove();
  }
});
