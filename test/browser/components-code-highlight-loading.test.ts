import { expect, test } from 'vitest';
import { loadMarkdown } from '../../components/markdown/markdown-loader.js';
import { MarkdownView } from '../../components/markdown/markdown-view.js';

// Its own file: the highlighter must not have been loaded by another test of this module graph.
// Issue 26 saw a code block empty while its highlighter loaded; this checks the plain code is
// there (and laid out) from the first render, before the highlighter and its language arrive.

test('a code block shows its plain code until the highlighter has loaded, then the same code coloured', async () => {
  await loadMarkdown();
  const code = 'const answer = 42; // the answer\nconsole.log(answer);\n';
  const view = new MarkdownView({ text: `Here:\n\n\`\`\`js\n${code}\`\`\`\n`, finished: true });
  document.body.append(view.element);
  try {
    await expect.poll(() => view.element.querySelector('pre code')).not.toBeNull();
    const block = view.element.querySelector<HTMLElement>('pre code');
    // Not yet highlighted: the highlighter is a module of its own, loading now.
    expect(block?.querySelector('span')).toBeNull();
    expect(block?.textContent).toBe(code);
    expect(block?.getBoundingClientRect().height).toBeGreaterThan(0);

    await expect.poll(() => block?.querySelector('span')).not.toBeNull();
    expect(block?.textContent).toBe(code);
  } finally {
    view.element.remove();
  }
});
