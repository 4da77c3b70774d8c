import { beforeAll, describe, expect, test } from 'vitest';
import { closeInline } from '../../components/markdown/close-inline.js';
import { loadMarkdown } from '../../components/markdown/markdown-loader.js';
import { MarkdownView } from '../../components/markdown/markdown-view.js';

describe('closeInline: unterminated inline markup of a streaming tail, closed for now', () => {
  test.each([
    ['The answer is **12', 'The answer is **12**'],
    ['The answer is **', 'The answer is '],
    ['an *emphasised wo', 'an *emphasised wo*'],
    ['**bold and *both', '**bold and *both***'],
    ['call `run_java', 'call `run_java`'],
    ['call `', 'call '],
    ['~~gone', '~~gone~~'],
    ['closed **bold** and *it*', 'closed **bold** and *it*'],
    ['6 * 7 = 42', '6 * 7 = 42'],
    ['* a list item', '* a list item'],
    ['`a * b` is code', '`a * b` is code'],
    ['\\*not emphasis', '\\*not emphasis'],
    ['first **para**\n\nsecond *grow', 'first **para**\n\nsecond *grow*'],
    ['```js\nconst x = **y', '```js\nconst x = **y'],
  ])('%j → %j', (tail, shown) => {
    expect(closeInline(tail)).toBe(shown);
  });
});

describe('MarkdownView while streaming', () => {
  beforeAll(async () => {
    await loadMarkdown();
  });

  test('a half-written **12 shows bold, no raw asterisks; the final text is rendered as it is', () => {
    const view = new MarkdownView({});
    const element = view.element;
    view.append('The answer is **12');
    view.flush();

    expect(element.querySelector('strong')?.textContent).toBe('12');
    expect(element.textContent).not.toContain('*');

    view.append(' * 3');
    view.append('6**.');
    view.finish();
    expect(element.querySelector('strong')?.textContent).toBe('12 * 36');
    expect(view.text).toBe('The answer is **12 * 36**.');
  });
});
