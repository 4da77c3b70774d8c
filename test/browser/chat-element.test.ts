import { afterEach, describe, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import { z } from 'zod';
import '../../components/index.js';
import type { AgentChat } from '../../components/index.js';
import {
  AgentError,
  Client,
  memoryHistory,
  scriptedBackend,
  tool,
  type AgentEvent,
  type ScriptedResponse,
} from '../../src/index.js';

const mounted: HTMLElement[] = [];

afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

function mount(setup: (chat: AgentChat) => void): AgentChat {
  const chat = document.createElement('agent-chat');
  chat.style.height = '480px';
  setup(chat);
  document.body.append(chat);
  mounted.push(chat);
  return chat;
}

function withBackend(turns: ScriptedResponse[], extra: (chat: AgentChat) => void = () => {}) {
  const backend = scriptedBackend(turns);
  const chat = mount((element) => {
    element.model = 'scripted';
    element.backend = backend;
    extra(element);
  });
  return { chat, backend };
}

const root = (chat: AgentChat) => chat.shadowRoot as ShadowRoot;
const $ = <T extends Element = HTMLElement>(chat: AgentChat, selector: string) =>
  root(chat).querySelector<T>(selector);
const $$ = (chat: AgentChat, selector: string) => [
  ...root(chat).querySelectorAll<HTMLElement>(selector),
];
const text = (chat: AgentChat, selector: string) => ($(chat, selector)?.textContent ?? '').trim();

function events(chat: AgentChat): AgentEvent[] {
  const seen: AgentEvent[] = [];
  chat.addEventListener('agent-event', (event) => seen.push(event.detail));
  return seen;
}

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const delta = (value: Record<string, unknown>, finishReason: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: value, finish_reason: finishReason }],
});

/** One `add` call whose arguments arrive in three fragments, as llama.cpp streams them. */
const fragmentedAdd = () => [
  delta({ role: 'assistant', content: '' }),
  delta({
    tool_calls: [
      { index: 0, id: 'call_add', type: 'function', function: { name: 'add', arguments: '{"a":' } },
    ],
  }),
  delta({ tool_calls: [{ index: 0, function: { arguments: '2,"b"' } }] }),
  delta({ tool_calls: [{ index: 0, function: { arguments: ':3}' } }] }),
  delta({}, 'tool_calls'),
];

/** A promise the test resolves when it has looked: `await gate.opened` … `gate.open()`. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('<agent-chat>', () => {
  test('renders a streamed answer as markdown in an accessible log', async () => {
    const { chat } = withBackend([{ text: ['Hello ', '**world**', '!'] }]);
    const seen = events(chat);
    const ended = new Promise<CustomEvent>((resolve) =>
      chat.addEventListener('agent-run-end', resolve, { once: true }),
    );

    expect(await chat.send('Hi')).toBe(true);

    const log = $(chat, '[role="log"]');
    expect(log?.getAttribute('aria-live')).toBe('polite');
    expect(text(chat, 'article.user .bubble')).toBe('Hi');
    // The markdown renderer is its own chunk, loaded on first use: the text shows plain until then.
    await expect
      .poll(() => $(chat, 'article.assistant strong')?.textContent, { timeout: 15_000 })
      .toBe('world');
    expect(seen.map((event) => event.type)).toEqual(['text', 'text', 'text', 'step_end', 'done']);
    expect((await ended).detail).toMatchObject({ status: 'completed' });
  });

  test('streaming touches only the growing message: earlier DOM nodes stay', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { chat } = withBackend([
      { text: 'First answer.' },
      { text: ['a ', 'b ', 'c'], delayMs: 30 },
    ]);
    await chat.send('one');
    await chat.updateComplete;
    const firstUser = $(chat, 'article.user');
    const firstAnswer = $(chat, 'article.assistant .markdown');

    chat.addEventListener('agent-event', (event) => {
      if (event.detail.type === 'done') release();
    });
    const run = chat.send('two');
    await gate;
    await run;

    expect($$(chat, 'article.user')[0]).toBe(firstUser);
    expect($$(chat, 'article.assistant .markdown')[0]).toBe(firstAnswer);
    expect(text(chat, 'article.assistant:last-of-type')).toContain('a b c');
  });

  test('an answer that turns out to be reasoning (a lone </think>, Qwen3 templates) moves into the reasoning disclosure', async () => {
    const looked = gate();
    // A backend that stops after the first delta until the test has looked.
    async function* chunks() {
      yield delta({ role: 'assistant', content: 'Let me' });
      await looked.opened;
      yield delta({ content: ' think.</think>' });
      yield delta({ content: '\n\nIt is **4**.' });
      yield delta({}, 'stop');
    }
    const chat = mount((element) => {
      element.model = 'm';
      element.backend = { chat: { completions: { create: () => Promise.resolve(chunks()) } } };
    });

    const run = chat.send('2 + 2?');
    // Until the </think> arrives, nothing says this is reasoning: it shows as the answer.
    await expect.poll(() => text(chat, 'article.assistant .markdown')).toBe('Let me');
    looked.open();
    expect(await run).toBe(true);
    await chat.updateComplete;

    expect(
      $$(chat, 'article.assistant .markdown').map((element) => element.textContent?.trim()),
    ).toEqual(['It is 4.']);
    expect(text(chat, 'article.assistant details.reasoning .reasoning-text')).toBe('Let me think.');
    expect(text(chat, 'article.assistant details.reasoning summary')).toBe('Reasoning');
  });

  test('a tool call shows a card with arguments, status and result', async () => {
    const { chat } = withBackend(
      [{ toolCalls: [{ name: 'add', input: { a: 2, b: 3 } }] }, { text: 'It is 5.' }],
      (element) => {
        element.tools = [add];
      },
    );

    await chat.send('2 + 3?');
    await chat.updateComplete;

    const card = $(chat, 'section.tool');
    expect(card?.querySelector('.tool-name')?.textContent).toBe('add');
    expect(card?.querySelector('[part~="tool-arguments"]')?.textContent).toBe(
      JSON.stringify({ a: 2, b: 3 }, null, 2),
    );
    expect(card?.querySelector('.tool-status')?.textContent).toContain('Done');
    expect(card?.querySelector('.tool-result pre')?.textContent).toBe('5');
    expect(text(chat, 'article.assistant')).toContain('It is 5.');
  });

  test('a tool card shows its arguments as they stream in, then the real card replaces it', async () => {
    // The first response stops after each fragment until the test has looked at the card.
    const gates = [gate(), gate()];
    const [role, first, second, ...rest] = fragmentedAdd();
    async function* fragments() {
      yield* [role, first];
      await gates[0]?.opened;
      yield second;
      await gates[1]?.opened;
      yield* rest;
    }
    const answer = scriptedBackend([{ text: 'It is 5.' }]);
    let calls = 0;
    const chat = mount((element) => {
      element.model = 'm';
      element.tools = [add];
      element.backend = {
        chat: {
          completions: {
            create: (request, options) =>
              calls++ === 0
                ? Promise.resolve(fragments())
                : answer.chat.completions.create(request, options),
          },
        },
      };
    });
    const seen = events(chat);
    const provisional = 'section.tool.receiving [part~="tool-arguments"]';

    const run = chat.send('2 + 3?');

    await expect.poll(() => text(chat, provisional)).toBe('{"a":');
    const growing = $(chat, provisional);
    expect(text(chat, 'section.tool.receiving .tool-name')).toBe('add');
    expect(text(chat, 'section.tool.receiving .tool-status')).toBe('Receiving arguments…');
    gates[0]?.open();
    await expect.poll(() => text(chat, provisional)).toBe('{"a":2,"b"');
    expect($(chat, provisional)).toBe(growing);
    expect(seen.map((event) => event.type)).not.toContain('tool_use');
    gates[1]?.open();

    expect(await run).toBe(true);
    await chat.updateComplete;
    expect($$(chat, 'section.tool')).toHaveLength(1);
    expect($(chat, 'section.tool.receiving')).toBeNull();
    expect(text(chat, 'section.tool [part~="tool-arguments"]')).toBe(
      JSON.stringify({ a: 2, b: 3 }, null, 2),
    );
    expect(text(chat, 'section.tool .tool-status')).toContain('Done');
  });

  test('a Client given as a property streams arguments into cards too, and keeps its own callbacks', async () => {
    // The call's first fragment, then the server stalls.
    const chunks = fragmentedAdd().slice(0, 2);
    const seen: string[] = [];
    const client = new Client({
      model: 'm',
      backend: scriptedBackend([{ chunks, hang: true }]),
      tools: [add],
      onToolInputDelta: (delta) => seen.push(delta.inputText),
    });
    const chat = mount((element) => {
      element.client = client;
    });

    const run = chat.send('2 + 3?');

    await expect
      .poll(() => text(chat, 'section.tool.receiving [part~="tool-arguments"]'))
      .toBe('{"a":');
    expect(seen).toEqual(['{"a":']);
    chat.stop();
    await run;
  });

  test('approval: Approve runs the tool, Deny tells the model', async () => {
    const guarded = tool({
      ...{ name: 'add', description: 'Adds' },
      input: z.object({ a: z.number(), b: z.number() }),
      needsApproval: true,
      execute: ({ a, b }) => a + b,
    });
    const { chat, backend } = withBackend(
      [
        { toolCalls: [{ name: 'add', input: { a: 1, b: 1 } }] },
        { text: 'Two.' },
        { toolCalls: [{ name: 'add', input: { a: 9, b: 9 } }] },
        { text: 'Not run.' },
      ],
      (element) => {
        element.tools = [guarded];
      },
    );

    await chat.send('1 + 1');
    await chat.updateComplete;
    expect(text(chat, 'section.tool .tool-status')).toContain('Waiting for approval');
    $<HTMLButtonElement>(chat, '[part~="approve-button"]')?.click();
    await expect.poll(() => text(chat, 'article.assistant')).toContain('Two.');
    expect(text(chat, 'section.tool .tool-result pre')).toBe('2');

    await chat.send('9 + 9');
    await chat.updateComplete;
    const cards = () => $$(chat, 'section.tool');
    cards()[1]?.querySelector<HTMLButtonElement>('[part~="deny-button"]')?.click();
    await expect.poll(() => text(chat, 'article.assistant:last-of-type')).toContain('Not run.');
    expect(cards()[1]?.querySelector('.tool-status')?.textContent).toContain('Denied');
    const denial = backend.requests[3]?.messages.at(-1);
    expect(denial).toMatchObject({
      role: 'tool',
      content: expect.stringContaining('denied') as unknown,
    });
  });

  test('Approve clicked as soon as the card shows (before the run has ended) still runs the tool', async () => {
    const guarded = tool({
      name: 'add',
      description: 'Adds',
      input: z.object({ a: z.number(), b: z.number() }),
      needsApproval: true,
      execute: ({ a, b }) => a + b,
    });
    const { chat } = withBackend(
      [{ toolCalls: [{ name: 'add', input: { a: 20, b: 22 } }] }, { text: 'Forty-two.' }],
      (element) => {
        element.tools = [guarded];
      },
    );
    chat.addEventListener('agent-event', (event) => {
      if (event.detail.type !== 'awaiting_tool_results') return;
      void chat.updateComplete.then(() =>
        $<HTMLButtonElement>(chat, '[part~="approve-button"]')?.click(),
      );
    });

    await chat.send('20 + 22');

    await expect.poll(() => text(chat, 'article.assistant')).toContain('Forty-two.');
    expect(text(chat, 'section.tool .tool-result pre')).toBe('42');
  });

  test('external tools wait for the page, then continue with its result', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Asks the page',
      input: z.object({ key: z.string() }),
    });
    const { chat, backend } = withBackend(
      [{ toolCalls: [{ name: 'lookup', input: { key: 'k' }, id: 'call_1' }] }, { text: 'Got it.' }],
      (element) => {
        element.tools = [lookup];
      },
    );

    await chat.send('look up k');
    await chat.updateComplete;
    expect(text(chat, 'section.tool')).toContain('Waiting for the page');

    expect(await chat.submitToolResult('call_1', { value: 42 })).toBe(true);
    expect(text(chat, 'article.assistant')).toContain('Got it.');
    expect(backend.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: '{"value":42}',
    });
  });

  test('an error shows a banner with the message; Retry calls the model again', async () => {
    const failure = new AgentError('HTTP_ERROR', 'HTTP 500 from the server: model crashed', {
      status: 500,
    });
    const { chat, backend } = withBackend([{ failRequest: failure }, { text: 'Back.' }]);
    const errors: Error[] = [];
    chat.addEventListener('agent-error', (event) => errors.push(event.detail.error));

    expect(await chat.send('hello')).toBe(false);
    await chat.updateComplete;
    expect($(chat, '[role="alert"]')?.textContent).toContain('model crashed');
    expect(errors).toEqual([failure]);

    $<HTMLButtonElement>(chat, '[part~="retry-button"]')?.click();
    await expect.poll(() => text(chat, 'article.assistant')).toContain('Back.');
    expect($(chat, '[role="alert"]')).toBeNull();
    expect(backend.requests[1]?.messages.filter((message) => message.role === 'user')).toHaveLength(
      1,
    );
  });

  test('Retry after an answer broke off mid-stream shows the new answer in place of the partial one, also after a reload', async () => {
    const history = memoryHistory();
    const cutOff = new AgentError('STREAM_TRUNCATED', 'The stream ended early');
    const { chat } = withBackend(
      [{ text: ['Hello', ' wor'], error: cutOff }, { text: 'Hello world!' }],
      (element) => {
        element.history = history;
        element.conversationId = 'retry';
      },
    );

    expect(await chat.send('Hi')).toBe(false);
    await chat.updateComplete;
    expect(text(chat, 'article.assistant')).toContain('Hello wor');
    $<HTMLButtonElement>(chat, '[part~="retry-button"]')?.click();
    await expect.poll(() => text(chat, 'article.assistant')).toContain('Hello world!');
    await chat.updateComplete;

    const answers = (element: AgentChat) =>
      $$(element, 'article.assistant .markdown').map((node) => node.textContent?.trim());
    expect(answers(chat)).toEqual(['Hello world!']);
    const reopened = withBackend([], (element) => {
      element.history = history;
      element.conversationId = 'retry';
    }).chat;
    await expect.poll(() => answers(reopened)).toEqual(['Hello world!']);
  });

  test('a run that fails before any output shows only the error, no empty answer', async () => {
    const failure = new AgentError(
      'NETWORK_ERROR',
      'Could not reach http://localhost:11434/v1',
      {},
    );
    const { chat } = withBackend([
      { failRequest: failure },
      { text: 'Partial', error: failure },
      { text: 'Back.' },
    ]);

    expect(await chat.send('hello')).toBe(false);
    await chat.updateComplete;

    expect($(chat, '[role="alert"]')?.textContent).toContain('Could not reach');
    expect($$(chat, 'article').map((article) => article.className.replace('message ', ''))).toEqual(
      ['user'],
    );

    expect(await chat.retry()).toBe(false);
    await chat.updateComplete;
    expect($$(chat, 'article.assistant')).toHaveLength(1);
    expect(text(chat, 'article.assistant')).toContain('Partial');

    expect(await chat.retry()).toBe(true);
    await chat.updateComplete;
    expect($(chat, '[role="alert"]')).toBeNull();
    expect(text(chat, 'article.assistant')).toContain('Back.');
  });

  test('Stop keeps the partial answer', async () => {
    const { chat } = withBackend([
      { text: 'one two three four five six seven eight nine ten', delayMs: 40 },
    ]);
    chat.addEventListener('agent-event', (event) => {
      if (event.detail.type === 'text' && event.detail.text.startsWith('three')) chat.stop();
    });

    await chat.send('count');
    await chat.updateComplete;

    const answer = text(chat, 'article.assistant');
    expect(answer).toContain('one two three');
    expect(answer).not.toContain('ten');
    expect(answer).toContain('Stopped.');
    expect(chat.activeClient?.history.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'one two three ',
    });
  });

  test('Enter sends, Shift+Enter adds a line', async () => {
    const { chat, backend } = withBackend([{ text: 'ok' }]);
    await chat.updateComplete;
    const input = $<HTMLTextAreaElement>(chat, 'textarea');
    if (!input) throw new Error('no textarea');
    await expect.poll(() => input.disabled).toBe(false);
    input.focus();
    await userEvent.keyboard('line one{Shift>}{Enter}{/Shift}line two');
    expect(input.value).toBe('line one\nline two');
    expect(backend.requests).toHaveLength(0);

    await userEvent.keyboard('{Enter}');
    await expect.poll(() => backend.requests.length).toBe(1);
    expect(backend.requests[0]?.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'line one\nline two',
    });
  });

  test('a conversation persists in its history store and opens again', async () => {
    const history = memoryHistory();
    const first = withBackend(
      [{ toolCalls: [{ name: 'add', input: { a: 1, b: 2 } }] }, { text: 'Three.' }],
      (element) => {
        element.tools = [add];
        element.history = history;
        element.conversationId = 'saved';
      },
    );
    await first.chat.send('1 + 2');
    await first.chat.activeClient?.close();

    const second = withBackend([], (element) => {
      element.history = history;
      element.conversationId = 'saved';
    });
    await expect.poll(() => text(second.chat, 'article.assistant')).toContain('Three.');
    expect(text(second.chat, 'article.user .bubble')).toBe('1 + 2');
    expect(text(second.chat, 'section.tool .tool-status')).toContain('Done');
    expect($(second.chat, 'agent-conversations')).toBeNull();
    $<HTMLButtonElement>(second.chat, '[part~="sidebar-button"]')?.click();
    await expect
      .poll(() => $(second.chat, 'agent-conversations')?.shadowRoot?.textContent ?? '')
      .toContain('1 + 2');
  });

  test('uses a ready Client given as a property', async () => {
    const client = new Client({
      model: 'm',
      backend: scriptedBackend([{ text: 'From the given client.' }]),
    });
    const chat = mount((element) => {
      element.client = client;
    });

    await chat.send('hi');

    expect(chat.activeClient).toBe(client);
    expect(text(chat, 'article.assistant')).toContain('From the given client.');
  });

  test('a long conversation opens with only its latest messages rendered', async () => {
    const history = memoryHistory();
    const messages = Array.from({ length: 1000 }, (_, index) =>
      index % 2 === 0
        ? { role: 'user' as const, content: `question ${index}` }
        : { role: 'assistant' as const, content: `answer **${index}**` },
    );
    await history.append('long', messages);

    const { chat } = withBackend([], (element) => {
      element.history = history;
      element.conversationId = 'long';
    });

    await expect.poll(() => $$(chat, 'article').length).toBeGreaterThan(0);
    expect($$(chat, 'article').length).toBeLessThanOrEqual(40);
    expect(text(chat, 'article.assistant:last-of-type .markdown')).toBe('answer 999');
    const log = $(chat, '[role="log"]');
    await expect
      .poll(() => log && log.scrollHeight - log.scrollTop - log.clientHeight)
      .toBeLessThan(2);
    $<HTMLButtonElement>(chat, '[part~="earlier-button"]')?.click();
    await expect.poll(() => $$(chat, 'article').length).toBe(100);
  });

  test('does not pull the view down while the user reads above', async () => {
    const history = memoryHistory();
    await history.append(
      'scroll',
      Array.from({ length: 30 }, (_, index) => ({
        role: 'user' as const,
        content: `message ${index}\n\n`.repeat(3),
      })),
    );
    const { chat } = withBackend([{ text: 'new words '.repeat(50), delayMs: 5 }], (element) => {
      element.history = history;
      element.conversationId = 'scroll';
    });
    await expect.poll(() => $$(chat, 'article.user').length).toBe(30);
    const log = $(chat, '[role="log"]');
    if (!log) throw new Error('no log');
    log.scrollTop = 0;
    log.dispatchEvent(new Event('scroll'));

    await chat.send('more');

    expect(log.scrollTop).toBe(0);
    await chat.updateComplete;
    expect($(chat, '[part~="jump-button"]')).not.toBeNull();

    $<HTMLButtonElement>(chat, '[part~="jump-button"]')?.click();
    await expect.poll(() => log.scrollHeight - log.scrollTop - log.clientHeight).toBeLessThan(2);
    await expect.poll(() => $(chat, '[part~="jump-button"]')).toBeNull();
  });

  test('follows a streaming answer to the bottom', async () => {
    const { chat } = withBackend([
      { text: Array.from({ length: 60 }, (_, index) => `Paragraph ${index} grows.\n\n`) },
    ]);
    await chat.updateComplete;
    const log = $(chat, '[role="log"]');
    if (!log) throw new Error('no log');

    await chat.send('long answer');
    await chat.updateComplete;

    expect(text(chat, 'article.assistant')).toContain('Paragraph 59 grows.');
    // content-visibility sizes the new message in the next frame.
    await expect.poll(() => log.scrollHeight).toBeGreaterThan(log.clientHeight * 2);
    await expect.poll(() => log.scrollHeight - log.scrollTop - log.clientHeight).toBeLessThan(2);
    expect($(chat, '[part~="jump-button"]')).toBeNull();
  });
});

describe('<agent-chat> and the context window', () => {
  test('notes under the answer when older messages were left out of what the model saw', async () => {
    const long = (index: number) =>
      `Message ${index}: ${'some words to fill the window. '.repeat(20)}`;
    const { chat } = withBackend(
      Array.from({ length: 12 }, (_, index) => ({ text: `answer ${index}` })),
      (element) => {
        element.options = { contextWindow: 2048, maxTokens: 256 };
      },
    );
    const seen = events(chat);
    await customElements.whenDefined('agent-chat');
    for (let index = 0; index < 12; index += 1) expect(await chat.send(long(index))).toBe(true);
    const trimmed = seen.filter((event) => event.type === 'context_trimmed');
    expect(trimmed.length).toBeGreaterThan(0);
    await chat.updateComplete;
    const notes = $$(chat, '.note').map((note) => note.textContent ?? '');
    expect(notes).toHaveLength(trimmed.length);
    expect(notes.at(-1)).toMatch(/older messages did not fit its context window/);
  });

  test("a context meter in the header shows the last request's prompt tokens and the window", async () => {
    const { chat } = withBackend(
      [
        { text: 'first', usage: { promptTokens: 1234, completionTokens: 5 } },
        { text: 'second', usage: { promptTokens: 7700, completionTokens: 5 } },
      ],
      (element) => {
        element.options = { contextWindow: 8192, maxTokens: 256 };
        element.strings = {
          'Context window used by the last request': 'Fenêtre de contexte utilisée',
        };
      },
    );
    await chat.updateComplete;
    // Nothing to show before a request.
    expect($(chat, '[part="context-meter"]')).toBeNull();
    expect(await chat.send('hello')).toBe(true);
    await chat.updateComplete;
    const meter = $<HTMLMeterElement>(chat, '[part="context-meter"] meter');
    expect(meter?.value).toBe(1234);
    expect(meter?.max).toBe(8192);
    expect(meter?.getAttribute('aria-label')).toBe('Fenêtre de contexte utilisée');
    expect(text(chat, '[part="context-meter"]')).toBe('1.2K / 8.2K tokens');
    expect(await chat.send('again')).toBe(true);
    await chat.updateComplete;
    // Past `high` (90 %): the meter's own "even less good" region, the warning colours.
    const full = $<HTMLMeterElement>(chat, '[part="context-meter"] meter');
    expect(full?.value).toBe(7700);
    expect(full!.value).toBeGreaterThan(full!.high);
    expect(text(chat, '[part="context-meter"]')).toBe('7.7K / 8.2K tokens');
  });
});
