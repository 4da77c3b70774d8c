import type { Message } from '../types/message.js';
import { imageKey } from './idb-records.js';

/**
 * The few lines every IndexedDB write and read needs for images kept as Blobs; the conversion
 * itself (idb-images.ts) loads with `import()` only for a conversation that has images.
 */

/** Messages as pages store them, and the images to store beside them by id. */
export interface StoredForm {
  messages: readonly Message[];
  images: ReadonlyMap<string, Blob>;
}

/** `messages` ready for the pages: `data:` images taken out as Blobs (before the transaction). */
export async function storedForm(messages: readonly Message[]): Promise<StoredForm> {
  const hasImages = messages.some(
    (message) =>
      message.role === 'user' &&
      typeof message.content !== 'string' &&
      message.content.some(
        (part) => part.type === 'image_url' && part.image_url.url.startsWith('data:'),
      ),
  );
  if (!hasImages) return { messages, images: new Map() };
  return (await import('./idb-images.js')).toStored(messages);
}

/** Puts the images of a {@link StoredForm} inside the caller's readwrite transaction. */
export function putImages(
  objectStore: IDBObjectStore,
  conversationId: string,
  form: StoredForm,
): void {
  for (const [id, blob] of form.images) objectStore.put({ id, blob }, imageKey(conversationId, id));
}

/** Stored messages with their image references as data URLs again (when there are images). */
export async function loadedForm(messages: Message[], records: unknown): Promise<Message[]> {
  if (!Array.isArray(records) || records.length === 0) return messages;
  const images = new Map<string, Blob>();
  for (const record of records as unknown[]) {
    const { id, blob } = (record ?? {}) as { id?: unknown; blob?: unknown }; // checked next
    if (typeof id === 'string' && blob instanceof Blob) images.set(id, blob);
  }
  return (await import('./idb-images.js')).fromStored(messages, images);
}
