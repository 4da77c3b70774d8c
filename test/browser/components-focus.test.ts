import { afterEach, describe, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import { z } from 'zod';
import '../../components/index.js';
import { loadMarkdown } from '../../components/markdown/markdown-loader.js';
import { scriptedBackend, tool } from '../../src/index.js';

const mounted: HTMLElement[] = [];

afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

/** The focused element, through shadow roots. */
function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** The parent element, crossing from a shadow root to its host. */
function parentOf(element: Element): Element | null {
  if (element.parentElement) return element.parentElement;
  const root = element.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** Why the focus ring of `element` is not fully visible, or `undefined` when it is. */
function ringProblem(element: Element): string | undefined {
  const style = getComputedStyle(element);
  const width = parseFloat(style.outlineWidth);
  if (style.outlineStyle === 'none' || width < 2)
    return `no focus ring (outline: ${style.outlineStyle} ${style.outlineWidth})`;
  const reach = Math.max(0, width + parseFloat(style.outlineOffset));
  const box = element.getBoundingClientRect();
  const ring = {
    left: box.left - reach,
    top: box.top - reach,
    right: box.right + reach,
    bottom: box.bottom + reach,
  };
  // Ancestors that clip paint: overflow other than visible, or content-visibility (paint containment).
  for (let ancestor = parentOf(element); ancestor; ancestor = parentOf(ancestor)) {
    const clip = getComputedStyle(ancestor);
    if (
      clip.overflowX === 'visible' &&
      clip.overflowY === 'visible' &&
      clip.contentVisibility !== 'auto'
    )
      continue;
    const outer = ancestor.getBoundingClientRect();
    const edge = {
      left: outer.left + parseFloat(clip.borderLeftWidth),
      top: outer.top + parseFloat(clip.borderTopWidth),
      right: outer.right - parseFloat(clip.borderRightWidth),
      bottom: outer.bottom - parseFloat(clip.borderBottomWidth),
    };
    const slack = 0.5;
    if (
      ring.left < edge.left - slack ||
      ring.top < edge.top - slack ||
      ring.right > edge.right + slack ||
      ring.bottom > edge.bottom + slack
    ) {
      return `ring clipped by ${ancestor.localName}.${[...ancestor.classList].join('.')}`;
    }
  }
  return undefined;
}

describe('keyboard focus in <agent-chat>', () => {
  test('every control reached with Tab shows a focus ring that nothing clips', async () => {
    const guarded = tool({
      name: 'add',
      description: 'Adds',
      input: z.object({ a: z.number(), b: z.number() }),
      needsApproval: true,
      execute: ({ a, b }) => a + b,
    });
    const chat = document.createElement('agent-chat');
    chat.style.height = '900px';
    chat.model = 'scripted';
    chat.tools = [guarded];
    chat.backend = scriptedBackend([
      {
        text: '[A link](https://example.com) starts the line.\n\n```js\nconst x = 1;\n```\n\nThen [another](https://example.com/2).',
        reasoning: 'Thinking it over.',
      },
      { toolCalls: [{ name: 'add', input: { a: 1, b: 2 } }] },
    ]);
    const start = document.createElement('button');
    start.textContent = 'before the chat';
    document.body.append(start, chat);
    mounted.push(start, chat);
    await chat.send('show me');
    await chat.send('add');
    await chat.updateComplete;
    await loadMarkdown();
    await expect.poll(() => chat.shadowRoot?.querySelectorAll('.markdown a').length).toBe(2);

    start.focus();
    const reached: string[] = [];
    const seen = new Set<Element>();
    const problems: string[] = [];
    for (let step = 0; step < 30; step++) {
      await userEvent.tab();
      const active = deepActive();
      if (!active || !chat.shadowRoot?.contains(active)) break;
      const name = `${active.localName}${active.getAttribute('part') ? `[${active.getAttribute('part')}]` : ''} "${(active.textContent ?? '').trim().slice(0, 20)}"`;
      // Back at a control already reached: Tab went round. (Names repeat: every prompt has Edit.)
      if (seen.has(active)) break;
      seen.add(active);
      reached.push(name);
      const problem = ringProblem(active);
      if (problem) problems.push(`${name}: ${problem}`);
    }

    expect(reached.length).toBeGreaterThanOrEqual(8);
    expect(reached.some((name) => name.startsWith('a '))).toBe(true);
    expect(reached.some((name) => name.includes('copy-button'))).toBe(true);
    expect(reached.some((name) => name.includes('approve-button'))).toBe(true);
    expect(problems).toEqual([]);
  });
});
