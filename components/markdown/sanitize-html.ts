/**
 * What sanitised model output may contain, and the rules both sanitisers enforce: the browser's
 * own HTML Sanitizer API (`Element.setHTML`, Chrome 146+, Firefox 148+) where present, else
 * DOMPurify, loaded only then. Either way the result is the same; the test suites run on both.
 */

/** Turns an HTML string into a sanitised fragment of the current document. */
export type Sanitize = (html: string, options: { allowRemoteImages: boolean }) => DocumentFragment;

export const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'b',
  'i',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'input',
  'span',
  'sup',
  'sub',
  'kbd',
];
export const ALLOWED_ATTR = [
  'href',
  'title',
  'alt',
  'src',
  'start',
  'align',
  'type',
  'checked',
  'disabled',
  'class',
];

const SAFE_LINK = /^(?:https?:|mailto:)/i;
const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp|avif);base64,/i;
const REMOTE_IMAGE = /^https?:/i;
const CODE_CLASS = /^language-[\w+#.-]{1,40}$/;

/**
 * Our rules on one element that passed the allow-lists, applied while it is still in an inert
 * document: links only to http(s)/mailto, opening safely; images only from `data:` (or http(s)
 * when allowed), their `src` removed before anything can load them; checkboxes only, disabled;
 * no class but a code block's language.
 */
export function enforceRules(node: Element, allowRemoteImages: boolean): void {
  const tag = node.localName;
  if (tag === 'a') {
    const href = node.getAttribute('href') ?? '';
    if (!SAFE_LINK.test(href.trim())) node.removeAttribute('href');
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  } else if (tag === 'img') {
    const src = (node.getAttribute('src') ?? '').trim();
    const allowed = DATA_IMAGE.test(src) || (allowRemoteImages && REMOTE_IMAGE.test(src));
    if (!allowed) {
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
  if (className !== null && !(tag === 'code' && CODE_CLASS.test(className)))
    node.removeAttribute('class');
}

interface SetHTML {
  setHTML(html: string, options: { sanitizer: Record<string, unknown> }): void;
}

/** Whether this browser has the HTML Sanitizer API's `Element.setHTML`. */
export function hasNativeSanitizer(): boolean {
  return typeof (Element.prototype as Partial<SetHTML>).setHTML === 'function';
}

/**
 * The native sanitiser: `setHTML` (which never keeps script, handlers or `javascript:` URLs,
 * whatever the configuration) with our allow-lists, into an element of an inert document — no
 * browsing context, so nothing loads — then our rules, then the nodes move to the page.
 */
export const nativeSanitize: Sanitize = (html, { allowRemoteImages }) => {
  const inert = document.implementation.createHTMLDocument('');
  const container = inert.createElement('div');
  // hasNativeSanitizer() said this browser's elements have setHTML.
  (container as unknown as SetHTML).setHTML(html, {
    sanitizer: {
      elements: ALLOWED_TAGS,
      attributes: ALLOWED_ATTR,
      comments: false,
      dataAttributes: false,
    },
  });
  for (const element of [...container.querySelectorAll('*')])
    enforceRules(element, allowRemoteImages);
  const fragment = document.createDocumentFragment();
  // A copy of the live list: adopting a node removes it from the container.
  fragment.append(...[...container.childNodes].map((node) => document.adoptNode(node)));
  return fragment;
};

/** DOMPurify, for browsers without the Sanitizer API: loaded only there. */
export async function loadDOMPurifySanitize(): Promise<Sanitize> {
  const { default: DOMPurify } = await import('dompurify');
  // A private instance: our hook must not change the page's own DOMPurify.
  const purify = DOMPurify(window);
  let remoteImages = false;
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node instanceof Element) enforceRules(node, remoteImages);
  });
  return (html, { allowRemoteImages }) => {
    remoteImages = allowRemoteImages;
    return purify.sanitize(html, {
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
      RETURN_DOM_FRAGMENT: true,
    });
  };
}
