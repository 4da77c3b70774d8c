import { expect, test } from 'vitest';
import { loadMarkdown } from '../../components/markdown/markdown-loader.js';
import { MarkdownView } from '../../components/markdown/markdown-view.js';

// Its own file: the renderer must not have been loaded by another test of this module graph.

test('shows plain text until the markdown renderer has loaded, then renders it', async () => {
  const stored = new MarkdownView({ text: 'Some *stored* <b>answer</b>', finished: true });
  const streaming = new MarkdownView({});
  streaming.append('# Title\n\nSecond');

  expect(stored.element.querySelector('.plain')?.textContent).toBe('Some *stored* <b>answer</b>');
  expect(stored.element.querySelector('b, em')).toBeNull();
  expect(streaming.element.textContent).toBe('# Title\n\nSecond');

  await loadMarkdown();
  await expect.poll(() => stored.element.querySelector('em')?.textContent).toBe('stored');
  expect(stored.element.querySelector('.plain')).toBeNull();
  // Raw HTML in model output stays text once rendered, too.
  expect(stored.element.querySelector('b')).toBeNull();
  await expect.poll(() => streaming.element.querySelector('h1')?.textContent).toBe('Title');
  streaming.append(' paragraph');
  streaming.finish();
  expect(streaming.element.querySelector('p')?.textContent).toBe('Second paragraph');
});
