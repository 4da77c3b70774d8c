import { afterEach, expect, test } from 'vitest';
import '../../components/index.js';
import type { AgentChat } from '../../components/index.js';
import { AgentError, scriptedBackend } from '../../src/index.js';

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

function failingChat(message: string): AgentChat {
  const chat = document.createElement('agent-chat');
  chat.style.height = '480px';
  chat.model = 'scripted';
  chat.backend = scriptedBackend([{ failRequest: new AgentError('HTTP_ERROR', message, { status: 400 }) }]);
  document.body.append(chat);
  mounted.push(chat);
  return chat;
}

test('the error banner shows `code` as code and keeps a long message short, the rest under Details', async () => {
  const chat = failingChat('HTTP 400 from the server: "tools param requires --jinja flag"\nFix: start `llama-server` with `--jinja`.');

  await chat.send('hi');
  await chat.updateComplete;

  const banner = chat.shadowRoot?.querySelector('[role="alert"]');
  expect(banner?.querySelector('.banner-text > span')?.textContent).toBe('HTTP 400 from the server: "tools param requires --jinja flag"');
  const details = banner?.querySelector('details');
  expect(details?.open).toBe(false);
  expect([...(details?.querySelectorAll('code') ?? [])].map((code) => code.textContent)).toEqual(['llama-server', '--jinja']);
  expect(banner?.textContent).not.toContain('`');
});

test('a short one-line error has no Details', async () => {
  const chat = failingChat('HTTP 500 from the server: model crashed');

  await chat.send('hi');
  await chat.updateComplete;

  const banner = chat.shadowRoot?.querySelector('[role="alert"]');
  expect(banner?.querySelector('.banner-text > span')?.textContent).toBe('HTTP 500 from the server: model crashed');
  expect(banner?.querySelector('details')).toBeNull();
});
