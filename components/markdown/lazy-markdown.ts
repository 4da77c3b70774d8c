/*
 * What the markdown chunk holds, loaded by markdown-loader.ts when the first answer shows: the
 * renderer (the markdown parser and the sanitiser) and the chunked, time-sliced view that drives it.
 */
export { ChunkedMarkdown } from './chunked-markdown.js';
export { createMarkdownRenderer } from './render-markdown.js';
export { TextSlices } from './text-slices.js';
