import type { ChunkedMarkdown } from './chunked-markdown.js';
import type { MarkdownOptions, RenderMarkdown } from './render-markdown.js';
import type { TextSlices } from './text-slices.js';

/** The markdown chunk, once loaded: the renderer and the view class that renders long text in slices. */
export interface LoadedMarkdown {
  render: RenderMarkdown;
  ChunkedMarkdown: typeof ChunkedMarkdown;
  TextSlices: typeof TextSlices;
}

let loaded: LoadedMarkdown | undefined;
let loading: Promise<LoadedMarkdown> | undefined;

/**
 * The markdown chunk once loaded, else `undefined` (and loading starts). The parser and the
 * sanitiser are most of a chat page's weight and nothing needs them before the first answer is
 * shown: they load as their own chunk, and the element's first paint does not wait. DOMPurify
 * loads only in browsers without the HTML Sanitizer API.
 */
export function loadedMarkdown(): LoadedMarkdown | undefined {
  if (!loaded) void loadChunk().catch(() => undefined);
  return loaded;
}

/** The markdown renderer once loaded, else `undefined` (and loading starts). */
export function markdownRenderer(): RenderMarkdown | undefined {
  return loadedMarkdown()?.render;
}

/**
 * Loads the markdown chunk (the parser, and DOMPurify where the browser has no sanitiser). A failed
 * load (the chunk unreachable) is forgotten, so the next call tries again.
 */
export function loadChunk(): Promise<LoadedMarkdown> {
  loading ??= import('./lazy-markdown.js').then(
    async (module) =>
      (loaded = {
        render: await module.createMarkdownRenderer(),
        ChunkedMarkdown: module.ChunkedMarkdown,
        TextSlices: module.TextSlices,
      }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Loads the markdown renderer (the parser, and DOMPurify where the browser has no sanitiser). */
export async function loadMarkdown(): Promise<RenderMarkdown> {
  return (await loadChunk()).render;
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
