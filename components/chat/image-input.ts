import { html, type TemplateResult } from 'lit';
import type { Translate } from '../strings/chat-strings.js';

/**
 * Images a user pastes, drops or attaches, made ready to send, and their thumbnails in the
 * composer. Loaded with `import()` on the first one, so a chat nobody sends a picture in never
 * ships it.
 */

/**
 * An image file as a data URL, scaled down (never up) so its longer side is at most `maxSide`
 * pixels: vision models see a few hundred pixels a side anyway, and every byte is sent again
 * with each later turn. PNGs stay PNG (screenshots, transparency); the rest become JPEG.
 *
 * @throws when the file is not an image the browser can decode.
 */
export async function scaledImage(file: Blob, maxSide: number): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return canvas.toDataURL(file.type === 'image/png' ? 'image/png' : 'image/jpeg', 0.9);
}

/** The images among `files`, scaled, in order; a file that does not decode is left out. */
export async function scaledImages(files: readonly Blob[], maxSide: number): Promise<string[]> {
  const images = files.filter((file) => file.type.startsWith('image/'));
  const urls = await Promise.all(images.map((file) => scaledImage(file, maxSide).catch(() => '')));
  return urls.filter((url) => url !== '');
}

/**
 * The images going with the next message, as thumbnails, each with a × button that removes it
 * (labelled "Remove image N"; hover or focus outlines the image it removes). Focus then goes to
 * the message box: the button it was on is gone.
 */
export function attachmentsTemplate(
  images: readonly string[],
  remove: (index: number) => void,
  t: Translate,
): TemplateResult {
  const removeAt = (index: number, event: Event) => {
    const root = (event.currentTarget as Element).getRootNode() as ParentNode; // a button's root
    remove(index);
    root.querySelector<HTMLElement>('[part~="input"]')?.focus();
  };
  return html`<style>
      .attachments { display: flex; flex-wrap: wrap; gap: 6px; width: 100%; }
      .thumb { position: relative; border-radius: 8px; line-height: 0; outline: 2px solid transparent; outline-offset: 1px; }
      .thumb img { max-height: 72px; max-width: 160px; border-radius: 8px; }
      .thumb:is(:hover, :focus-within) { outline-color: var(--_focus); }
      .thumb:is(:hover, :focus-within) img { opacity: 0.75; }
      .attachments button.remove { position: absolute; top: 3px; right: 3px; width: 26px; min-height: 0; height: 26px; padding: 0; border: 0; border-radius: 50%; display: grid; place-items: center; font: 600 16px/1 sans-serif; color: #fff; background: #000a; }
      .attachments button.remove:is(:hover, :focus-visible) { background: #000e; outline-color: #fff; }
    </style><div class="attachments" part="attachments">${images.map(
      (url, index) =>
        html`<span class="thumb" part="attachment">${thumbnail(url, t('Image {n}', { n: index + 1 }), t)}<button type="button" class="remove" part="attachment-remove" aria-label=${t('Remove image {n}', { n: index + 1 })} title=${t('Remove image {n}', { n: index + 1 })}
        @click=${(event: Event) => removeAt(index, event)}>×</button></span>`,
    )}</div>`;
}

/**
 * An attachment's thumbnail: the composer shows only `data:` and `blob:` images (an edited
 * message's remote image goes again, but is not fetched to be shown).
 */
function thumbnail(url: string, alt: string, t: Translate): TemplateResult {
  // transcript/image-source.ts's rule with remote images off, inline: importing it from this lazy
  // module would split it off the first load.
  const source = /^(?:data:image\/|blob:)/i.test(url.trim()) ? url.trim() : undefined;
  return source === undefined
    ? html`<span class="blocked-image" part="blocked-image" title=${t('Remote images are blocked: they can leak the conversation to another site')}>${t('Image not loaded: {alt}', { alt })}</span>`
    : html`<img src=${source} alt=${alt} referrerpolicy="no-referrer">`;
}
