import { beforeAll, describe, expect, test } from 'vitest';
import { boundNesting, MAX_NESTING } from '../../components/bound-markdown.js';
import { createMarkdownRenderer, type RenderMarkdown } from '../../components/render-markdown.js';

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
