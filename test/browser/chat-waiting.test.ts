import { afterEach, describe, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import '../../components/index.js';
import type { AgentChat } from '../../components/index.js';
import type { ChatBackend, WaitReport } from '../../src/index.js';
import { DARK } from './fixtures/chat-page.js';

// While the model has not begun, <agent-chat> says what the wait is, in the answer's place,
// with Stop available; the first token replaces it.
const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

const delta = (content: string, finish: string | null = null) => ({
  choices: [{ index: 0, delta: content ? { content } : {}, finish_reason: finish }],
});

/** A backend that reports a wait, then answers when `release()` is called. */
function slowBackend(reports: WaitReport[]) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const backend: ChatBackend = {
    chat: {
      completions: {
        create: (_request, options) => {
          for (const report of reports) options?.onWaiting?.(report);
          return (async function* () {
            await Promise.race([
              released,
              new Promise((_, reject) =>
                options?.signal?.addEventListener('abort', () =>
                  reject(new DOMException('Stopped', 'AbortError')),
                ),
              ),
            ]);
            yield delta('Hello there.');
            yield delta('', 'stop');
          })();
        },
      },
    },
  };
  return { backend, release };
}

function mount(backend: ChatBackend): AgentChat {
  const chat = document.createElement('agent-chat');
  chat.style.height = '480px';
  chat.model = 'qwen3:30b';
  chat.backend = backend;
  document.body.append(chat);
  mounted.push(chat);
  return chat;
}

const root = (chat: AgentChat) => chat.shadowRoot as ShadowRoot;
const waitingLine = (chat: AgentChat) =>
  root(chat).querySelector('[part="waiting"]')?.textContent?.trim() ?? null;

describe('<agent-chat> while the model has not begun', () => {
  test('shows the model loading in the answer’s place, then the answer replaces it', async () => {
    const { backend, release } = slowBackend([{ phase: 'loading_model', model: 'qwen3:30b' }]);
    const chat = mount(backend);
    const run = chat.send('Hi');
    await expect
      .poll(() => waitingLine(chat), { timeout: 5_000 })
      .toMatch(/^Loading qwen3:30b… \d+ s$/);
    const waiting = root(chat).querySelector('[part="waiting"]');
    expect(waiting?.closest('[part~="message-assistant"]')).not.toBeNull();
    expect(waiting?.getAttribute('role')).toBe('status');
    // For a person to look at (test-results/ is not committed; the e2e takes the dark ones).
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.viewport(width, height);
      await page.screenshot({ path: `../../test-results/waiting/${width}-light.png` });
    }
    release();
    expect(await run).toBe(true);
    await chat.updateComplete;
    expect(waitingLine(chat)).toBeNull();
    expect(root(chat).querySelector('[part~="message-assistant"]')?.textContent).toContain(
      'Hello there.',
    );
  });

  test('shows how much of the conversation the server has read', async () => {
    const { backend, release } = slowBackend([{ phase: 'reading_prompt', progress: 0.456 }]);
    const chat = mount(backend);
    const run = chat.send('Hi');
    await expect
      .poll(() => waitingLine(chat), { timeout: 5_000 })
      .toBe('Reading the conversation… 45 %');
    release();
    expect(await run).toBe(true);
  });

  test('says the earlier messages are being summarised (the summary call of contextPolicy summarize)', async () => {
    const { backend, release } = slowBackend([{ phase: 'summarizing' }]);
    const chat = mount(backend);
    const run = chat.send('Hi');
    await expect
      .poll(() => waitingLine(chat), { timeout: 5_000 })
      .toMatch(/^Summarising earlier messages… \d+ s$/);
    // For a person to look at (test-results/ is not committed).
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.viewport(width, height);
      for (const scheme of ['light', 'dark'] as const) {
        for (const [property, value] of Object.entries(DARK))
          if (scheme === 'dark') chat.style.setProperty(property, value);
          else chat.style.removeProperty(property);
        await page.screenshot({
          path: `../../test-results/waiting/summarizing-${width}-${scheme}.png`,
        });
      }
    }
    release();
    expect(await run).toBe(true);
  });

  test('Stop ends the wait', async () => {
    const { backend } = slowBackend([{ phase: 'waiting' }]);
    const chat = mount(backend);
    const run = chat.send('Hi');
    await expect
      .poll(() => waitingLine(chat), { timeout: 5_000 })
      .toMatch(/^Waiting for the model… \d+ s$/);
    chat.stop();
    await run;
    await chat.updateComplete;
    expect(waitingLine(chat)).toBeNull();
    expect(root(chat).querySelector('[part~="message-assistant"]')?.textContent).toContain(
      'Stopped.',
    );
  });

  test('shows the waiting line in the same update as the sent message, before any report', async () => {
    // Nothing reported (the runtime's first report comes 250 ms into the call, and a page's
    // first Send loads the runtime's parts before that): the line is there at once.
    const { backend, release } = slowBackend([]);
    const chat = mount(backend);
    await chat.updateComplete;
    const run = chat.send('Hi');
    await expect
      .poll(() => root(chat).querySelector('[part~="message-user"]'), { timeout: 5_000 })
      .not.toBeNull();
    expect(waitingLine(chat)).toBe('Waiting for the model… 0 s');
    release();
    expect(await run).toBe(true);
    await chat.updateComplete;
    expect(waitingLine(chat)).toBeNull();
  });
});
