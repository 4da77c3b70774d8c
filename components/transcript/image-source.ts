/**
 * The one rule for images the chat shows, the same for a model's markdown and a user's message
 * (live, reloaded or imported): `data:image/…` and `blob:` always; `http(s)` only when the page
 * allows remote images — loading one tells its server the reader's address and when they looked.
 * Returns the URL to load, or `undefined` to show a placeholder.
 *
 * @example
 * shownImageSource('https://example.com/a.png', false); // undefined
 */
export function shownImageSource(url: string, allowRemoteImages: boolean): string | undefined {
  const trimmed = url.trim();
  if (/^data:image\//i.test(trimmed) || /^blob:/i.test(trimmed)) return trimmed;
  return allowRemoteImages && /^https?:/i.test(trimmed) ? trimmed : undefined;
}
