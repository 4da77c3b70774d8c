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
  chat.backend = scriptedBackend([
    { failRequest: new AgentError('HTTP_ERROR', message, { status: 400 }) },
  ]);
  document.body.append(chat);
  mounted.push(chat);
  return chat;
}

test('the error banner shows the fix in view, not folded, with `code` as code', async () => {
  const chat = failingChat(
    'HTTP 400 from the server: "tools param requires --jinja flag"\nFix: start `llama-server` with `--jinja`.',
  );

  await chat.send('hi');
  await chat.updateComplete;

  const banner = chat.shadowRoot?.querySelector('[role="alert"]');
  expect(banner?.querySelector('.banner-text > span')?.textContent).toBe(
    'HTTP 400 from the server: "tools param requires --jinja flag"',
  );
  expect(banner?.querySelector('details')).toBeNull();
  const fix = banner?.querySelector('[part="error-fix"]');
  expect(fix?.textContent).toContain('Fix: start llama-server with --jinja.');
  expect([...(fix?.querySelectorAll('code') ?? [])].map((code) => code.textContent)).toEqual([
    'llama-server',
    '--jinja',
  ]);
  expect(banner?.textContent).not.toContain('`');
});

test('a page that cannot reach a local server sees the CORS setting for its origin in view', async () => {
  const origin = location.origin;
  const chat = failingChat(
    `Could not reach http://localhost:11434/v1/chat/completions: Failed to fetch\nThe server did not answer, or it does not allow requests from this page (${origin}) (CORS). Check that it is running at http://localhost:11434, then allow this origin:\n- Ollama: restart it with OLLAMA_ORIGINS=${origin} (e.g. \`OLLAMA_ORIGINS=${origin} ollama serve\`; use * to allow any page).`,
  );

  await chat.send('hi');
  await chat.updateComplete;

  const banner = chat.shadowRoot?.querySelector('[role="alert"]');
  expect(banner?.querySelector('details')).toBeNull();
  const fix = banner?.querySelector<HTMLElement>('[part="error-fix"]');
  expect(fix?.textContent).toContain(`OLLAMA_ORIGINS=${origin}`);
  expect(fix?.offsetHeight).toBeGreaterThan(0);
});

test('a long explanation folds under Details, its first line in view', async () => {
  const chat = failingChat(
    `HTTP 500 from the server: crashed\nThe model ran out of memory.\n${'trace line\n'.repeat(120)}`,
  );

  await chat.send('hi');
  await chat.updateComplete;

  const banner = chat.shadowRoot?.querySelector('[role="alert"]');
  const details = banner?.querySelector<HTMLDetailsElement>('details');
  expect(details?.open).toBe(false);
  expect(details?.textContent).toContain('trace line');
  const fix = banner?.querySelector<HTMLElement>('[part="error-fix"]');
  expect(fix?.textContent).toBe('The model ran out of memory.');
  expect(fix?.offsetHeight).toBeGreaterThan(0);
});

test('a denied Local Network Access is the fix in view; the CORS settings fold under Details', async () => {
  const { corsHint } = await import('../../src/backend/cors-hint.js');
  const hint = corsHint('http://127.0.0.1:9999/v1', 'https://chat.example.com', 'denied') ?? '';
  const chat = failingChat(`Could not reach http://127.0.0.1:9999/v1: Failed to fetch\n${hint}`);

  await chat.send('hi');
  await chat.updateComplete;

  const banner = chat.shadowRoot?.querySelector('[role="alert"]');
  const fix = banner?.querySelector<HTMLElement>('[part="error-fix"]');
  expect(fix?.textContent).toContain('Local Network Access permission is denied');
  expect(fix?.textContent).not.toContain('OLLAMA_ORIGINS');
  expect(fix?.offsetHeight).toBeGreaterThan(0);
  const details = banner?.querySelector<HTMLDetailsElement>('details');
  expect(details?.textContent).toContain('If it still fails:');
  expect(details?.textContent).toContain('OLLAMA_ORIGINS=https://chat.example.com');
});

test('a short one-line error has no Details', async () => {
  const chat = failingChat('HTTP 500 from the server: model crashed');

  await chat.send('hi');
  await chat.updateComplete;

  const banner = chat.shadowRoot?.querySelector('[role="alert"]');
  expect(banner?.querySelector('.banner-text > span')?.textContent).toBe(
    'HTTP 500 from the server: model crashed',
  );
  expect(banner?.querySelector('details')).toBeNull();
});
