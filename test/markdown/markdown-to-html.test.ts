import { describe, expect, test } from 'vitest';
import { markdownToHtml } from '../../components/markdown/markdown-blocks.js';
import { seededRandom } from '../support/seeded-random.js';

/** The HTML without the newlines between tags, to compare structure. */
const html = (markdown: string): string => markdownToHtml(markdown).replace(/>\n+/g, '>').trim();

// What models write, as marked (the parser before this one) rendered it.
describe('markdownToHtml: blocks', () => {
  test.each([
    ['# Title\n\ntext', '<h1>Title</h1><p>text</p>'],
    ['## Heading ##\n#hashtag', '<h2>Heading</h2><p>#hashtag</p>'],
    ['Text\n===\n\nSub\n---', '<h1>Text</h1><h2>Sub</h2>'],
    ['---\n\n* * *', '<hr><hr>'],
    ['Multiple\nlines', '<p>Multiple\nlines</p>'],
    ['> quote\nlazy\n\nout', '<blockquote><p>quote\nlazy</p></blockquote><p>out</p>'],
    ['> ```\n> code\n> ```', '<blockquote><pre><code>code\n</code></pre></blockquote>'],
    [
      '```js\nconst x = 1 < 2;\n```',
      '<pre><code class="language-js">const x = 1 &lt; 2;\n</code></pre>',
    ],
    ['```\nunclosed\nstill code', '<pre><code>unclosed\nstill code\n</code></pre>'],
    [
      '````md\n```js\ninner\n```\n````',
      '<pre><code class="language-md">```js\ninner\n```\n</code></pre>',
    ],
    ['    indented\n    code', '<pre><code>indented\ncode\n</code></pre>'],
    ['Para\n```\ncode\n```', '<p>Para</p><pre><code>code\n</code></pre>'],
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
  ])('%j', (markdown, expected) => {
    expect(html(markdown)).toBe(expected);
  });
});

describe('markdownToHtml: lists', () => {
  test.each([
    ['- a\n- b', '<ul><li>a</li><li>b</li></ul>'],
    ['A line\n- list right after', '<p>A line</p><ul><li>list right after</li></ul>'],
    ['text\n2. not a list', '<p>text\n2. not a list</p>'],
    ['5. five\n6. six', '<ol start="5"><li>five</li><li>six</li></ol>'],
    ['1) paren', '<ol><li>paren</li></ol>'],
    ['- loose a\n\n- loose b', '<ul><li><p>loose a</p></li><li><p>loose b</p></li></ul>'],
    [
      '- item\n\n  continued\n- next',
      '<ul><li><p>item</p><p>continued</p></li><li><p>next</p></li></ul>',
    ],
    [
      '- first\n  - nested a\n  - nested b\n- third',
      '<ul><li>first<ul><li>nested a</li><li>nested b</li></ul></li><li>third</li></ul>',
    ],
    ['1. one\n   - sub\n2. two', '<ol><li>one<ul><li>sub</li></ul></li><li>two</li></ol>'],
    [
      '1. First\n   ```sh\n   npm i\n   ```\n2. Second',
      '<ol><li>First<pre><code class="language-sh">npm i\n</code></pre></li><li>Second</li></ol>',
    ],
    ['* star\n+ plus', '<ul><li>star</li></ul><ul><li>plus</li></ul>'],
    ['- item\nlazily', '<ul><li>item\nlazily</li></ul>'],
    [
      '- [ ] todo\n- [x] done',
      '<ul><li><input type="checkbox" disabled> todo</li><li><input type="checkbox" disabled checked> done</li></ul>',
    ],
  ])('%j', (markdown, expected) => {
    expect(html(markdown)).toBe(expected);
  });
});

describe('markdownToHtml: tables', () => {
  test.each([
    [
      '| x | y |\n|---|---|\n| 1 | 2 |',
      '<table><thead><tr><th>x</th><th>y</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>',
    ],
    [
      'Table:\n| L | C | R |\n|:--|:-:|--:|\n| a | b | c |',
      '<p>Table:</p><table><thead><tr><th align="left">L</th><th align="center">C</th><th align="right">R</th></tr></thead><tbody><tr><td align="left">a</td><td align="center">b</td><td align="right">c</td></tr></tbody></table>',
    ],
    [
      'a | b\n-|-\n`c\\|d` | **e**',
      '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td><code>c|d</code></td><td><strong>e</strong></td></tr></tbody></table>',
    ],
    [
      '| a | b |\n|---|---|\n| one |\n| 1 | 2 | 3 |',
      '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>one</td><td></td></tr><tr><td>1</td><td>2</td></tr></tbody></table>',
    ],
  ])('%j', (markdown, expected) => {
    expect(html(markdown)).toBe(expected);
  });
});

describe('markdownToHtml: inline', () => {
  test.each([
    ['**bold** and `code`', '<p><strong>bold</strong> and <code>code</code></p>'],
    [
      '***both*** and **a *b* c**',
      '<p><em><strong>both</strong></em> and <strong>a <em>b</em> c</strong></p>',
    ],
    ['snake_case and 2*3*4 and a * b', '<p>snake_case and 2<em>3</em>4 and a * b</p>'],
    ['__init__ and *args, **kwargs', '<p><strong>init</strong> and *args, **kwargs</p>'],
    ['~~gone~~ ~x~ ~~~no~~~', '<p><del>gone</del> <del>x</del> ~~~no~~~</p>'],
    ['Some `` a ` b `` here', '<p>Some <code>a ` b</code> here</p>'],
    ['\\*not\\* \\_em\\_', '<p>*not* _em_</p>'],
    ['one  \ntwo\\\nthree', '<p>one<br>two<br>three</p>'],
    ['&copy; & < > "q"', '<p>&copy; &amp; &lt; &gt; &quot;q&quot;</p>'],
    ['<b onclick="x">b</b>', '<p>&lt;b onclick=&quot;x&quot;&gt;b&lt;/b&gt;</p>'],
    [
      '[a](https://x.y "T") ![i *e*](data:image/png;base64,AA)',
      '<p><a href="https://x.y" title="T">a</a> <img src="data:image/png;base64,AA" alt="i e"></p>',
    ],
    ['[p](https://w.org/Foo_(bar))', '<p><a href="https://w.org/Foo_(bar)">p</a></p>'],
    ['[s](<a b>)', '<p><a href="a%20b">s</a></p>'],
    [
      '[r][k] and [k]\n\n[k]: https://k.example "K"',
      '<p><a href="https://k.example" title="K">r</a> and <a href="https://k.example" title="K">k</a></p>',
    ],
    [
      '<https://a.b> and <me@x.com>',
      '<p><a href="https://a.b">https://a.b</a> and <a href="mailto:me@x.com">me@x.com</a></p>',
    ],
    [
      'See https://x.com/a?b=1. Or www.y.org, me@z.io!',
      '<p>See <a href="https://x.com/a?b=1">https://x.com/a?b=1</a>. Or <a href="http://www.y.org">www.y.org</a>, <a href="mailto:me@z.io">me@z.io</a>!</p>',
    ],
    [
      '[https://x.com](https://x.com) [![b](https://i.example/b.svg)](https://g.example)',
      '<p><a href="https://x.com">https://x.com</a> <a href="https://g.example"><img src="https://i.example/b.svg" alt="b"></a></p>',
    ],
    ['[unclosed link', '<p>[unclosed link</p>'],
  ])('%j', (markdown, expected) => {
    expect(html(markdown)).toBe(expected);
  });
});

describe('markdownToHtml on hostile input', () => {
  test('3,000 nested links render as one link, not 3,000 levels of recursion', () => {
    const out = markdownToHtml(`${'[a'.repeat(3_000)}${'](x)'.repeat(3_000)}`);
    expect(out.match(/<a /g)).toHaveLength(1);
  });

  test('16,000 unmatched brackets, backticks and emphasis runs stay text', () => {
    for (const text of ['['.repeat(16_000), '`a ``b '.repeat(2_000), '*a **b _c '.repeat(2_000)]) {
      const out = markdownToHtml(text);
      expect(out.replace(/<\/?(p|em|strong|code)>/g, '').length).toBeGreaterThan(text.length / 2);
    }
  });
});

// Pieces of markdown and of HTML, shuffled: every `<` the input has must come out escaped.
const PIECES = [
  '*',
  '**',
  '_',
  '__',
  '~~',
  '`',
  '``',
  '```',
  '~~~',
  '[',
  ']',
  '(',
  ')',
  '![',
  '<',
  '>',
  '&',
  '"',
  "'",
  '\\',
  '|',
  '-',
  '+',
  '1.',
  '#',
  '\n',
  '\n\n',
  '  ',
  '    ',
  '\t',
  ':',
  '@',
  'www.',
  'https://x.y',
  'javascript:alert(1)',
  '<script>',
  '</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:x">',
  '&lt;',
  '&#60;',
  'text',
  ' word ',
  '| a | b |\n|---|---|\n',
  '[r]: <javascript:x>',
  '- [ ] ',
  '> ',
];
const OUR_TAGS =
  /<\/?(?:p|h[1-6]|em|strong|del|code|pre|blockquote|ul|ol|li|table|thead|tbody|tr|th|td|hr|br|a|img|input)(?: [a-z]+(?:="[^"<>]*")?)*>/g;

test('2,000 random mixes of markdown and HTML: nothing throws, every raw < and > comes out escaped', () => {
  const next = seededRandom(26);
  for (let run = 0; run < 2_000; run++) {
    const length = 1 + Math.floor(next() * 40);
    const input = Array.from(
      { length },
      () => PIECES[Math.floor(next() * PIECES.length)] ?? '',
    ).join('');
    const rest = markdownToHtml(input).replace(OUR_TAGS, '');
    expect(rest, JSON.stringify(input)).not.toMatch(/[<>]/);
  }
});
