import { afterEach, expect, test } from 'vitest';
import '../../components/index.js';
import { Client, scriptedBackend } from '../../src/index.js';

// Measured fact 5 of issue 27: a user message's image_url pointing at the attacker was
// rendered as <img src>, so showing it told the attacker the reader's address. The
// "attacker's request log" here is the page's own resource timing: every fetch the page made.

const SPY = 'http://127.0.0.1:9/spy.png?reader=opened';
const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

const requestsToSpy = () =>
  performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => name.startsWith('http://127.0.0.1:9/'));

test('a remote image in a sent user message is not loaded: the element says it is blocked', async () => {
  const chat = document.createElement('agent-chat');
  chat.client = new Client({ model: 'scripted', backend: scriptedBackend([{ text: 'Nice.' }]) });
  document.body.append(chat);
  mounted.push(chat);
  await chat.updateComplete;

  await chat.send([
    { type: 'text', text: 'Look' },
    { type: 'image_url', image_url: { url: SPY } },
  ]);
  await expect
    .poll(() => chat.shadowRoot?.querySelector('article.assistant')?.textContent)
    .toContain('Nice.');
  await new Promise((resolve) => setTimeout(resolve, 100));

  const root = chat.shadowRoot;
  expect(root?.querySelector(`img[src^="http://127.0.0.1:9/"]`)).toBeNull();
  expect(root?.querySelector('article.user .blocked-image')?.textContent).toContain(
    'Image not loaded',
  );
  const log = requestsToSpy();
  console.log(`attacker's request log (resource timing): ${JSON.stringify(log)}`);
  expect(log).toEqual([]);
});
