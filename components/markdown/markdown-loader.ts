import type { MarkdownOptions, RenderMarkdown } from './render-markdown.js';

let renderer: RenderMarkdown | undefined;
let loading: Promise<RenderMarkdown> | undefined;

/**
 * The markdown renderer once loaded, else `undefined` (and loading starts). marked and the
 * sanitiser are most of a chat page's weight and nothing needs them before the first answer is
 * shown: they load as their own chunk, and the element's first paint does not wait. DOMPurify
 * loads only in browsers without the HTML Sanitizer API.
 */
export function markdownRenderer(): RenderMarkdown | undefined {
  if (!renderer) void loadMarkdown().catch(() => undefined);
  return renderer;
}

/**
 * Loads the markdown renderer (marked, and DOMPurify where the browser has no sanitiser). A
 * failed load (the chunk unreachable) is forgotten, so the next call tries again.
 */
export function loadMarkdown(): Promise<RenderMarkdown> {
  loading ??= import('./render-markdown.js').then(
    async (module) => (renderer = await module.createMarkdownRenderer()),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * Renders `markdown` to a sanitised fragment, loading the renderer first when needed: no
 * script, no event handlers, no `javascript:` links, remote images blocked unless allowed.
 *
 * @example
 * container.append(await renderMarkdown('**Hello** [docs](https://example.com)'));
 */
export async function renderMarkdown(
  markdown: string,
  options: MarkdownOptions = {},
): Promise<DocumentFragment> {
  return (await loadMarkdown())(markdown, options);
}
