import { afterEach, expect, test } from 'vitest';
import '../../components/index.js';
import type { AgentConversations } from '../../components/index.js';
import { memoryHistory, type HistoryStore } from '../../src/index.js';

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

async function mount(store: HistoryStore, selected?: string): Promise<AgentConversations> {
  const list = document.createElement('agent-conversations');
  list.store = store;
  if (selected !== undefined) list.selected = selected;
  document.body.append(list);
  mounted.push(list);
  await expect.poll(() => list.shadowRoot?.querySelectorAll('.row').length ?? 0).toBeGreaterThan(0);
  return list;
}

const rows = (list: AgentConversations) => [
  ...(list.shadowRoot?.querySelectorAll<HTMLElement>('.row') ?? []),
];
const titles = (list: AgentConversations) =>
  rows(list).map((row) => row.querySelector('.title')?.textContent);
const row = (list: AgentConversations, title: string) =>
  rows(list).find((candidate) => candidate.querySelector('.title')?.textContent === title);
const button = (row: HTMLElement | undefined, label: RegExp) =>
  [...(row?.querySelectorAll('button') ?? [])].find((candidate) =>
    label.test(candidate.getAttribute('aria-label') ?? candidate.textContent ?? ''),
  );

async function seeded(): Promise<HistoryStore> {
  const store = memoryHistory();
  await store.append('a', [{ role: 'user', content: 'First chat' }]);
  await new Promise((resolve) => setTimeout(resolve, 5)); // distinct updatedAt: a stable order
  await store.append('b', [
    { role: 'user', content: 'Second chat' },
    { role: 'assistant', content: 'ok' },
  ]);
  return store;
}

test('lists conversations newest first and marks the selected one', async () => {
  const list = await mount(await seeded(), 'a');

  expect(titles(list)).toEqual(['Second chat', 'First chat']);
  expect(rows(list)[1]?.querySelector('[aria-current="true"]')).not.toBeNull();
  expect(rows(list)[0]?.querySelector('.meta')?.textContent).toContain('2 messages');
});

test('selecting and "New" dispatch conversation-select', async () => {
  const list = await mount(await seeded());
  const selected: string[] = [];
  list.addEventListener('conversation-select', (event) =>
    selected.push(event.detail.conversationId),
  );

  row(list, 'First chat')?.querySelector<HTMLButtonElement>('.select')?.click();
  list.shadowRoot?.querySelector<HTMLButtonElement>('[part~="new-conversation-button"]')?.click();

  expect(selected[0]).toBe('a');
  expect(selected[1]).toMatch(/^[0-9a-f-]{36}$/);
});

test('rename with Enter, delete after confirming', async () => {
  const store = await seeded();
  const list = await mount(store);

  button(row(list, 'Second chat'), /^Rename/)?.click();
  await list.updateComplete;
  const input = list.shadowRoot?.querySelector<HTMLInputElement>('.editing input');
  if (!input) throw new Error('no rename input');
  input.value = 'Renamed';
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
  await expect.poll(() => titles(list)).toContain('Renamed');

  button(row(list, 'First chat'), /^Delete/)?.click();
  await list.updateComplete;
  expect(await store.load('a')).toBeDefined();
  button(row(list, 'First chat'), /^Delete$/)?.click();
  await expect.poll(() => titles(list)).toEqual(['Renamed']);
  expect(await store.load('a')).toBeUndefined();
});
