import { afterEach, expect, test } from 'vitest';
import '../../components/index.js';
import '../../components/model-picker/index.js';
import type { AgentChat } from '../../components/index.js';
import type { AgentModelPicker } from '../../components/model-picker/index.js';
import { scriptedBackend } from '../../src/index.js';

// <agent-model-picker> lives in the chat's header slot and follows the chat through a Lit
// controller (the chat has no hook of its own for it): its model, its server, its texts.

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

async function chatWithPicker(
  setup: (chat: AgentChat) => void,
): Promise<{ chat: AgentChat; picker: AgentModelPicker }> {
  const chat = document.createElement('agent-chat');
  setup(chat);
  const picker = document.createElement('agent-model-picker');
  picker.slot = 'header';
  chat.append(picker);
  document.body.append(chat);
  mounted.push(chat);
  await settle(chat, picker);
  return { chat, picker };
}

async function settle(chat: AgentChat, picker: AgentModelPicker): Promise<void> {
  await customElements.whenDefined('agent-chat');
  await chat.updateComplete;
  await picker.updateComplete;
}

function modelButton(picker: AgentModelPicker): HTMLButtonElement | null | undefined {
  return picker.shadowRoot?.querySelector<HTMLButtonElement>('[part="model-button"]');
}

test("the button shows the chat's model and follows it when the page changes it", async () => {
  const { chat, picker } = await chatWithPicker((chat) => {
    chat.baseUrl = 'http://127.0.0.1:9/v1';
    chat.model = 'qwen3:4b';
  });
  expect(modelButton(picker)?.getAttribute('aria-label')).toBe('qwen3:4b: choose a model');
  expect(modelButton(picker)?.getAttribute('aria-expanded')).toBe('false');
  // In the header, in place of the chat's own title.
  const slot = chat.shadowRoot?.querySelector<HTMLSlotElement>('slot[name="header"]');
  expect(slot?.assignedElements()).toEqual([picker]);

  chat.model = 'gemma3:4b';
  await settle(chat, picker);
  expect(modelButton(picker)?.textContent).toContain('gemma3:4b');

  chat.strings = { '{model}: choose a model': '{model} : choisir un modèle' };
  await settle(chat, picker);
  expect(modelButton(picker)?.getAttribute('aria-label')).toBe('gemma3:4b : choisir un modèle');
});

test('with a backend instead of base-url it shows the model name only', async () => {
  const { chat, picker } = await chatWithPicker((chat) => {
    chat.model = 'scripted';
    chat.backend = scriptedBackend([{ text: 'hi' }]);
  });
  expect(modelButton(picker)).toBeNull();
  expect(picker.shadowRoot?.querySelector('.title')?.textContent).toBe('scripted');

  chat.backend = undefined;
  chat.baseUrl = 'http://127.0.0.1:9/v1';
  await settle(chat, picker);
  expect(modelButton(picker)?.textContent).toContain('scripted');
});
