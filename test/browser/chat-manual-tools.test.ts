import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import '../../components/index.js';
import type { AgentChat, AgentToolCallDetail } from '../../components/index.js';
import { memoryHistory, scriptedBackend, tool, type ScriptedResponse } from '../../src/index.js';

// Without automatic tool runs, no call waits silently: Run / Skip on the card, or an
// `agent-tool-call` event for a tool the page answers itself.

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

function mount(turns: ScriptedResponse[], setup: (chat: AgentChat) => void) {
  const backend = scriptedBackend(turns);
  const chat = document.createElement('agent-chat');
  chat.style.height = '480px';
  chat.model = 'scripted';
  chat.backend = backend;
  setup(chat);
  document.body.append(chat);
  mounted.push(chat);
  return { chat, backend };
}

const root = (chat: AgentChat) => chat.shadowRoot as ShadowRoot;
const button = (chat: AgentChat, part: string) =>
  root(chat).querySelector<HTMLButtonElement>(`[part~="${part}"]`);
const text = (chat: AgentChat, selector: string) =>
  (root(chat).querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim();

let runs = 0;
const multiply = tool({
  name: 'multiply',
  description: 'Multiplies two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => {
    runs += 1;
    return a * b;
  },
});
const call = { toolCalls: [{ name: 'multiply', input: { a: 6, b: 7 }, id: 'call_1' }] };

describe('<agent-chat auto-execute="false">', () => {
  test('a call to a tool the element has gets Run; Run executes it and the answer follows', async () => {
    runs = 0;
    const { chat, backend } = mount([call, { text: 'It is 42.' }], (element) => {
      element.autoExecute = false;
      element.tools = [multiply];
    });

    await chat.send('What is 6 * 7?');
    await chat.updateComplete;
    expect(text(chat, 'section.tool')).toContain('run this call?');
    expect(runs).toBe(0);
    expect(backend.requests).toHaveLength(1);

    button(chat, 'run-button')?.click();

    await expect.poll(() => text(chat, 'article.assistant')).toContain('It is 42.');
    expect(runs).toBe(1);
    expect(text(chat, '[part~="tool-status"]')).toContain('Done');
    expect(backend.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: '42' });
  });

  test('Skip answers the call with a denial and the model goes on', async () => {
    runs = 0;
    const { chat, backend } = mount([call, { text: 'Skipped, then.' }], (element) => {
      element.autoExecute = false;
      element.tools = [multiply];
    });

    await chat.send('What is 6 * 7?');
    await chat.updateComplete;
    button(chat, 'skip-button')?.click();

    await expect.poll(() => text(chat, 'article.assistant')).toContain('Skipped, then.');
    expect(runs).toBe(0);
    expect(text(chat, '[part~="tool-status"]')).toContain('Denied');
    expect(text(chat, '[part~="tool-error"]')).toBe('Skipped by the user');
    expect(backend.requests[1]?.messages.at(-1)?.content).toContain('skipped by the user');
  });

  test('a skipped card reads the same when the conversation is opened again', async () => {
    const history = memoryHistory();
    const setup = (element: AgentChat) => {
      element.autoExecute = false;
      element.tools = [multiply];
      element.history = history;
      element.conversationId = 'skip';
    };
    const { chat } = mount([call, { text: 'Skipped, then.' }], setup);
    await chat.send('What is 6 * 7?');
    await chat.updateComplete;
    button(chat, 'skip-button')?.click();
    await expect.poll(() => text(chat, 'article.assistant')).toContain('Skipped, then.');
    chat.remove();

    const { chat: again } = mount([], setup);

    await expect.poll(() => text(again, '[part~="tool-error"]')).toBe('Skipped by the user');
  });
});

describe('a tool without execute', () => {
  const lookup = tool({
    name: 'lookup',
    description: 'Asks the page',
    input: z.object({ key: z.string() }),
  });
  const lookupCall = { toolCalls: [{ name: 'lookup', input: { key: 'k' }, id: 'call_9' }] };

  test('goes to the page as agent-tool-call; a listener answers with submitToolResult', async () => {
    const seen: AgentToolCallDetail[] = [];
    const { chat, backend } = mount([lookupCall, { text: 'Got v.' }], (element) => {
      element.tools = [lookup];
      element.addEventListener('agent-tool-call', (event) => {
        seen.push(event.detail);
        event.preventDefault();
        void element.submitToolResult(event.detail.toolUseId, 'v');
      });
    });

    await chat.send('look up k');

    await expect.poll(() => text(chat, 'article.assistant')).toContain('Got v.');
    expect(seen).toEqual([{ toolUseId: 'call_9', name: 'lookup', input: { key: 'k' } }]);
    expect(backend.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'v' });
  });

  test('with no listener the card says so and offers Skip', async () => {
    const { chat } = mount([lookupCall], (element) => {
      element.tools = [lookup];
    });

    await chat.send('look up k');
    await chat.updateComplete;

    expect(text(chat, '[part~="tool-note"]')).toContain('Nothing on this page answers this tool');
    expect(button(chat, 'skip-button')).not.toBeNull();
    expect(button(chat, 'run-button')).toBeNull();
  });
});
