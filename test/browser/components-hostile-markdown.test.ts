import { beforeAll, describe, expect, test } from 'vitest';
import { chunkSource, CHUNK, nextChunk } from '../../components/markdown/markdown-chunks.js';
import { boundNesting, MAX_NESTING } from '../../components/markdown/bound-markdown.js';
import { loadMarkdown } from '../../components/markdown/markdown-loader.js';
import { MarkdownView } from '../../components/markdown/markdown-view.js';
import {
  createMarkdownRenderer,
  type RenderMarkdown,
} from '../../components/markdown/render-markdown.js';

// Hostile or huge model output (issue 18): each renders, bounded, and nothing throws.
describe('renderMarkdown on hostile output', () => {
  let renderMarkdown: RenderMarkdown;
  beforeAll(async () => {
    renderMarkdown = await createMarkdownRenderer({ sanitizer: 'native' });
  });

  function html(markdown: string): HTMLElement {
    const container = document.createElement('div');
    container.append(renderMarkdown(markdown));
    return container;
  }

  const depth = (element: Element, selector: string): number => {
    let deepest = 0;
    for (const found of element.querySelectorAll(selector)) {
      let level = 0;
      for (let node: Element | null = found; node && node !== element; node = node.parentElement) {
        if (node.matches(selector)) level++;
      }
      deepest = Math.max(deepest, level);
    }
    return deepest;
  };

  test('5,000 nested blockquotes render, bounded in depth, the rest as text', () => {
    const out = html(`${'>'.repeat(5_000)} deep\n\nafter`);

    expect(depth(out, 'blockquote')).toBe(MAX_NESTING);
    expect(out.textContent).toContain('deep');
    expect(out.textContent).toContain('>>>');
    expect(out.lastElementChild?.textContent).toBe('after');
  });

  test('a 1,000-level nested list renders every item, nested no deeper than the bound', () => {
    const lines = Array.from(
      { length: 1_000 },
      (_, level) => `${'  '.repeat(level)}- item ${level}`,
    );
    const out = html(lines.join('\n'));

    expect(out.textContent).toContain('item 0');
    expect(out.textContent).toContain('item 999');
    expect(depth(out, 'ul')).toBeLessThanOrEqual(MAX_NESTING + 1);
  });

  test('a 100,000-character word gets break opportunities that copy as nothing', () => {
    const word = 'x'.repeat(100_000);
    const out = html(`before ${word} after`);

    expect(out.querySelectorAll('wbr').length).toBeGreaterThan(1_000);
    expect(out.textContent?.trim()).toBe(`before ${word} after`);
  });

  test('a text the renderer throws on shows as escaped plain text', async () => {
    const throwing = await createMarkdownRenderer({
      sanitizer: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    });
    const container = document.createElement('div');

    container.append(throwing('<b>still</b> **shown**'));

    expect(container.querySelector('b, strong')).toBeNull();
    expect(container.querySelector('.plain')?.textContent).toBe('<b>still</b> **shown**');
  });

  test('nesting bounds leave fenced code and ordinary text as they are', () => {
    const code = `\`\`\`\n${' '.repeat(100)}x\n${'>'.repeat(50)}\n\`\`\``;
    const ordinary = '> quote\n\n- a\n  - b\n\n1. one\n2. two';

    expect(boundNesting(code)).toBe(code);
    expect(boundNesting(ordinary)).toBe(ordinary);
  });
});

/** Every chunk of a finished `text`, rendered on its own as ChunkedMarkdown does. */
function chunks(text: string): string[] {
  const sources: string[] = [];
  let start = { fence: undefined as string | undefined, dedent: false };
  for (let from = 0; from < text.length;) {
    const chunk = nextChunk(text, from, { final: true, fence: start.fence });
    expect(chunk.end).toBeGreaterThan(from);
    sources.push(chunkSource(text, from, chunk.end, start));
    start = chunk;
    from = chunk.end;
  }
  return sources;
}

describe('a block that never ends', () => {
  test('a chunk longer than the limit ends at its last unindented line, never a table row', () => {
    const lines = Array.from(
      { length: 200 },
      (_, index) => `line ${index} of a block that never ends`,
    );
    const text = `${lines.join('\n')}\n| a | b |\nlast`;
    const first = nextChunk(text, 0, { final: false, fence: undefined });

    expect(first.end).toBeLessThanOrEqual(CHUNK);
    expect(text.slice(first.end)).toMatch(/^line \d+ of/);
    expect(nextChunk('one line\nanother line', 0, { final: false, fence: undefined }).end).toBe(0);
  });

  test('a 100 KB code block is cut into fences of its own, each reopened with its language', () => {
    const code = Array.from({ length: 4_000 }, (_, index) => `const line${index} = ${index};`).join(
      '\n',
    );
    const sources = chunks(`\`\`\`ts\n${code}\n\`\`\`\n\nafter`);

    expect(sources.length).toBeGreaterThan(4);
    for (const source of sources.slice(0, -1)) expect(source.startsWith('```ts\n')).toBe(true);
    expect(sources.join('')).toContain('const line3999 = 3999;');
  });

  test('a 1,000-level list is cut at line starts and each piece dedented, every item kept', () => {
    const text = Array.from(
      { length: 1_000 },
      (_, level) => `${'  '.repeat(level)}- item ${level}`,
    ).join('\n');
    const sources = chunks(text);

    expect(sources.length).toBeGreaterThan(10);
    for (const source of sources) expect(source).toMatch(/^- item \d+/);
    expect(sources.join('\n').match(/- item \d+/g)).toHaveLength(1_000);
  });

  test('one 1 MB line is cut at spaces, else anywhere', () => {
    const sources = chunks(`${'word '.repeat(50_000)}${'x'.repeat(100_000)}`);

    expect(sources.join('')).toHaveLength(350_000);
    expect(Math.max(...sources.map((source) => source.length))).toBeLessThanOrEqual(4 * CHUNK);
  });
});

describe('MarkdownView of a very long answer', () => {
  beforeAll(async () => {
    await loadMarkdown();
  });

  test('200 KB without a blank line streams in bounded pieces; past the fold it waits behind Show more', async () => {
    const view = new MarkdownView({});
    const element = view.element;
    document.body.append(element);
    const lines = Array.from(
      { length: 4_000 },
      (_, index) => `line ${index} of a paragraph that never ends`,
    );
    const text = lines.join('\n');
    for (let offset = 0; offset < text.length; offset += 1_000)
      view.append(text.slice(offset, offset + 1_000));
    view.finish();

    const button = element.querySelector<HTMLButtonElement>('button.show-more');
    await expect
      .poll(() => button?.textContent)
      .toMatch(/^Show more \(1\d\d,\d{3} more characters\)$/);
    expect(button?.getAttribute('aria-expanded')).toBe('false');
    const overflow = element.querySelector(`#${button?.getAttribute('aria-controls') ?? ''}`);
    expect(overflow?.hasAttribute('hidden')).toBe(true);
    expect(element.textContent).toContain('line 0 of');
    expect(element.textContent).not.toContain('line 3999 of');
    const blocks = [...element.querySelectorAll('.block')];
    expect(Math.max(...blocks.map((block) => block.textContent?.length ?? 0))).toBeLessThan(6_000);

    button?.click();

    expect(button?.getAttribute('aria-expanded')).toBe('true');
    expect(overflow?.hasAttribute('hidden')).toBe(false);
    await expect.poll(() => element.textContent?.includes('line 3999 of')).toBe(true);
    for (const line of lines) expect(element.textContent).toContain(line);
    expect(button?.textContent).toBe('Show less');
    expect(view.text).toBe(text);

    button?.click();
    expect(overflow?.hasAttribute('hidden')).toBe(true);
    element.remove();
  });

  test('a stored 150-level list (24 KB) shows every item, a piece per frame', async () => {
    const text = Array.from(
      { length: 150 },
      (_, level) => `${'  '.repeat(level)}- item ${level}`,
    ).join('\n');
    const view = new MarkdownView({ text, finished: true });

    await expect.poll(() => view.element.querySelectorAll('li').length).toBe(150);
    expect(view.element.textContent).toContain('item 149');
  });
});
