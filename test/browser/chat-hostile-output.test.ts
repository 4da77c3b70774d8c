import { afterEach, describe, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import { z } from 'zod';
import '../../components/index.js';
import type { AgentChat } from '../../components/index.js';
import {
  memoryHistory,
  scriptedBackend,
  tool,
  type HistoryStore,
  type ScriptedResponse,
} from '../../src/index.js';

// Hostile or huge model output in <agent-chat> (issue 18): nothing vanishes, every other
// message stays visible, live and after a reload.
const mounted: HTMLElement[] = [];

afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

function mount(turns: ScriptedResponse[], setup: (chat: AgentChat) => void = () => {}): AgentChat {
  const chat = document.createElement('agent-chat');
  chat.style.height = '480px';
  chat.model = 'scripted';
  chat.backend = scriptedBackend(turns);
  setup(chat);
  document.body.append(chat);
  mounted.push(chat);
  return chat;
}

const answers = (chat: AgentChat) =>
  [...(chat.shadowRoot as ShadowRoot).querySelectorAll('article.assistant')].map(
    (article) => article.textContent ?? '',
  );

const DEEP = `${'>'.repeat(3_000)} deep`;

describe('<agent-chat> on hostile output', () => {
  test('an answer nested 3,000 levels deep shows, and the answers around it too', async () => {
    const chat = mount([
      { text: 'before' },
      { text: [DEEP.slice(0, 1_000), DEEP.slice(1_000)] },
      { text: 'after' },
    ]);

    expect(await chat.send('one')).toBe(true);
    expect(await chat.send('two')).toBe(true);
    expect(await chat.send('three')).toBe(true);

    await expect.poll(() => answers(chat).length).toBe(3);
    await expect
      .poll(() => (chat.shadowRoot as ShadowRoot).querySelector('article.assistant blockquote'))
      .not.toBeNull();
    const shown = answers(chat);
    expect(shown[0]).toContain('before');
    expect(shown[1]).toContain('deep');
    expect(shown[2]).toContain('after');
  });

  test('a stored conversation with such an answer shows every message on load', async () => {
    const history: HistoryStore = memoryHistory();
    await history.append('c', [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: DEEP },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'the last answer' },
    ]);

    const chat = mount([], (element) => {
      element.history = history;
      element.conversationId = 'c';
    });

    await expect.poll(() => answers(chat).length).toBe(2);
    await expect.poll(() => answers(chat)[1]).toContain('the last answer');
    await expect.poll(() => answers(chat)[0]).toContain('deep');
  });

  test('a tool result the card cannot serialise (a BigInt, a cycle) shows, and the answer after it', async () => {
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    const big = tool({
      name: 'big',
      description: 'Returns a BigInt',
      input: z.object({}),
      execute: () => ({ value: 10n ** 20n }),
    });
    const loop = tool({
      name: 'loop',
      description: 'Returns a cycle',
      input: z.object({}),
      execute: () => cycle,
    });
    const chat = mount(
      [
        {
          toolCalls: [
            { name: 'big', input: {} },
            { name: 'loop', input: {} },
          ],
        },
        { text: 'The answer after the tools.' },
      ],
      (element) => {
        element.tools = [big, loop];
      },
    );

    await chat.send('go');
    await chat.updateComplete;

    const root = chat.shadowRoot as ShadowRoot;
    await expect.poll(() => answers(chat).join(' ')).toContain('The answer after the tools.');
    const cards = [...root.querySelectorAll('section.tool')];
    expect(cards).toHaveLength(2);
    expect(
      cards.every((card) => !card.querySelector('.tool-status')?.textContent?.includes('Running')),
    ).toBe(true);
    expect(cards[0]?.querySelector('.tool-result pre')?.textContent).toContain(
      '100000000000000000000',
    );
  });
});

describe('<agent-chat> on very long output: Show more', () => {
  test('a 1 MB tool result shows 2,000 characters; Show more appends the rest in slices, Show less folds it', async () => {
    const lines = Array.from(
      { length: 20_000 },
      (_, index) => `row ${index}: ${'data '.repeat(9)}`,
    );
    const huge = tool({
      name: 'dump',
      description: 'Returns a huge text',
      input: z.object({}),
      execute: () => lines.join('\n'),
    });
    const chat = mount(
      [{ toolCalls: [{ name: 'dump', input: {} }] }, { text: 'Done.' }],
      (element) => {
        element.tools = [huge];
      },
    );

    await chat.send('go');
    const root = chat.shadowRoot as ShadowRoot;
    await expect.poll(() => answers(chat).join(' ')).toContain('Done.');
    const button = () =>
      root.querySelector<HTMLButtonElement>('.tool-result button[part="show-more-button"]');
    const result = () => root.querySelector('.tool-result pre')?.textContent ?? '';
    expect(result()).toHaveLength(2_001);
    expect(button()?.getAttribute('aria-expanded')).toBe('false');
    expect(button()?.textContent?.trim()).toMatch(/^Show more \([\d,]+ more characters\)$/);

    button()?.click();

    await expect.poll(() => button()?.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => root.querySelector('.tool-result .slices[aria-busy]')).toBeNull();
    expect(result()).toBe(lines.join('\n'));
    expect(root.querySelectorAll('.tool-result .slice').length).toBeGreaterThan(10);
    expect(button()?.textContent?.trim()).toBe('Show less');

    button()?.click();

    await expect.poll(() => result()).toHaveLength(2_001);
    expect(button()?.getAttribute('aria-expanded')).toBe('false');
  });

  test('a 200 KB answer folds behind Show more, live and after a reload; Enter on the button shows it all', async () => {
    const history: HistoryStore = memoryHistory();
    const lines = Array.from(
      { length: 4_000 },
      (_, index) => `line ${index} of an answer that runs on`,
    );
    const text = `${lines.join('\n')}\n\nTHE-END`;
    const deltas = Array.from({ length: Math.ceil(text.length / 1_024) }, (_, index) =>
      text.slice(index * 1_024, (index + 1) * 1_024),
    );
    const chat = mount([{ text: deltas }, { text: 'The next answer.' }], (element) => {
      element.history = history;
      element.conversationId = 'long';
    });
    await chat.send('one');
    await chat.send('two');
    const root = chat.shadowRoot as ShadowRoot;
    await expect.poll(() => answers(chat)[1]).toContain('The next answer.');
    const more = () => root.querySelector<HTMLButtonElement>('article.assistant button.show-more');
    await expect.poll(() => more()?.getAttribute('aria-expanded')).toBe('false');
    expect(answers(chat)[0]).toContain('line 0 of');
    expect(answers(chat)[0]).not.toContain('THE-END');

    // A reload: the stored answer folds the same way, and the answer after it still shows.
    chat.remove();
    const reloaded = mount([], (element) => {
      element.history = history;
      element.conversationId = 'long';
    });
    const again = reloaded.shadowRoot as ShadowRoot;
    await expect.poll(() => answers(reloaded)[1]).toContain('The next answer.');
    const button = () =>
      again.querySelector<HTMLButtonElement>('article.assistant button.show-more');
    await expect.poll(() => button()?.getAttribute('aria-expanded')).toBe('false');

    button()?.focus();
    await userEvent.keyboard('{Enter}');

    expect(button()?.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => answers(reloaded)[0]).toContain('THE-END');
    for (const line of lines) expect(answers(reloaded)[0]).toContain(line);
    // The reader goes on from the fold: the view did not follow the rest to its end.
    const log = again.querySelector('.log') as HTMLElement;
    expect(log.scrollHeight - log.scrollTop - log.clientHeight).toBeGreaterThan(10_000);
  });
});

describe('<agent-chat> with an image tool result', () => {
  const image = [
    { type: 'text' as const, text: 'A screenshot:' },
    {
      type: 'image_url' as const,
      image_url: { url: `data:image/png;base64,${'A'.repeat(2_000_000)}` },
    },
  ];
  const shot = tool({
    name: 'shot',
    description: 'Takes a screenshot',
    input: z.object({}),
    execute: () => image,
  });
  const cardText = (chat: AgentChat) =>
    (chat.shadowRoot as ShadowRoot).querySelector('section.tool .tool-result pre')?.textContent ??
    '';

  test('the card names the image (type and size) instead of 2 MB of base64, live and after a reload', async () => {
    const history = memoryHistory();
    const chat = mount(
      [{ toolCalls: [{ name: 'shot', input: {} }] }, { text: 'Seen.' }],
      (element) => {
        element.tools = [shot];
        element.history = history;
        element.conversationId = 'shots';
      },
    );
    await chat.send('take one');
    await expect.poll(() => answers(chat).join(' ')).toContain('Seen.');
    expect(cardText(chat)).toContain('data:image/png;base64,… (2000.0 kB)');
    expect(cardText(chat).length).toBeLessThan(1_000);

    const reloaded = mount([], (element) => {
      element.history = history;
      element.conversationId = 'shots';
    });
    await expect.poll(() => cardText(reloaded)).toContain('(2000.0 kB)');
    expect(cardText(reloaded).length).toBeLessThan(1_000);
  });
});

describe('<agent-chat allow-remote-images>', () => {
  test('the attribute set before the first render is honoured', async () => {
    const chat = mount([{ text: '![pic](https://example.com/p.png)' }], (element) => {
      element.setAttribute('allow-remote-images', '');
    });

    await chat.send('show me');

    const root = chat.shadowRoot as ShadowRoot;
    await expect
      .poll(() => root.querySelector('article.assistant img')?.getAttribute('src'))
      .toBe('https://example.com/p.png');
    expect(root.querySelector('.blocked-image')).toBeNull();
  });
});
