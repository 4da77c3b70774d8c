import { afterEach, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import '../../components/index.js';
import { memoryHistory, scriptedBackend, type Message } from '../../src/index.js';

// The search box of <agent-conversations> inside <agent-chat>: highlighted snippets, and a
// result that opens its conversation at the message that matched.

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

const DARK: Record<string, string> = {
  '--agent-chat-bg': '#111318',
  '--agent-chat-surface': '#1a1d24',
  '--agent-chat-fg': '#e7e9ee',
  '--agent-chat-muted': '#9aa4b2',
  '--agent-chat-border': '#2b303b',
  '--agent-chat-accent': '#8d95ff',
  '--agent-chat-accent-fg': '#0f1115',
  '--agent-chat-user-bg': '#272c4a',
  '--agent-chat-user-fg': '#eef0ff',
  '--agent-chat-code-bg': '#0b0d11',
  'color-scheme': 'dark',
  background: '#111318',
};

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
  const chat = document.createElement('agent-chat');
  chat.style.height = '700px';
  chat.model = 'scripted';
  chat.backend = scriptedBackend([]);
  chat.history = history;
  chat.conversationId = 'c3';
  chat.sidebarOpen = true;
  document.body.append(chat);
  mounted.push(chat);
  const root = chat.shadowRoot as ShadowRoot;
  const list = () =>
    root.querySelector('agent-conversations')?.shadowRoot as ShadowRoot | undefined;
  await expect.poll(() => list()?.querySelector('input[type="search"]')).toBeTruthy();
  const input = list()?.querySelector<HTMLInputElement>('input[type="search"]') as HTMLInputElement;
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

  for (const [name, width, height] of [
    ['desktop', 1280, 800],
    ['phone', 390, 844],
  ] as const) {
    await page.viewport(width, height);
    chat.style.height = `${height}px`;
    for (const scheme of ['light', 'dark'] as const) {
      for (const [property, value] of Object.entries(DARK)) {
        if (scheme === 'dark') chat.style.setProperty(property, value);
        else chat.style.removeProperty(property);
      }
      await new Promise((resolve) => requestAnimationFrame(resolve));
      await page.screenshot({
        path: `../../test-results/conversation-search/${name}-${scheme}.png`,
        element: chat,
      });
    }
  }
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
