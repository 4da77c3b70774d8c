import { beforeAll, describe, expect, test } from 'vitest';
import { findBlockBoundary } from '../../components/markdown/block-boundary.js';
import { boundNesting, MAX_NESTING } from '../../components/markdown/bound-markdown.js';
import { loadMarkdown } from '../../components/markdown/markdown-loader.js';
import { MarkdownView } from '../../components/markdown/markdown-view.js';
import { createMarkdownRenderer, type RenderMarkdown } from '../../components/markdown/render-markdown.js';

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
    const lines = Array.from({ length: 1_000 }, (_, level) => `${'  '.repeat(level)}- item ${level}`);
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

describe('a block that never ends, streamed', () => {
  test('findBlockBoundary cuts a block longer than the limit at its last unindented line', () => {
    const text = 'one line\nanother line\n  indented\n| a | b |\nlast gro';

    expect(findBlockBoundary(text, 0)).toBe(0);
    expect(text.slice(findBlockBoundary(text, 0, 10))).toBe('last gro');
    expect(findBlockBoundary('```\nx\ny\nz', 0, 2)).toBe(0); // never inside a fence
  });

  test('MarkdownView renders 200 KB without a blank line in bounded pieces, every line shown', async () => {
    await loadMarkdown();
    const view = new MarkdownView({});
    const element = view.element;
    const lines = Array.from({ length: 4_000 }, (_, index) => `line ${index} of a paragraph that never ends`);
    const text = lines.join('\n');
    for (let offset = 0; offset < text.length; offset += 1_000) view.append(text.slice(offset, offset + 1_000));
    view.finish();

    const blocks = [...element.querySelectorAll('.block')];
    expect(blocks.length).toBeGreaterThan(20);
    expect(Math.max(...blocks.map((block) => block.textContent?.length ?? 0))).toBeLessThan(6_000);
    expect(element.textContent).toContain('line 0 of');
    expect(element.textContent).toContain('line 3999 of');
    expect(view.text).toBe(text);
  });
});
