import type { ContentPart, Message } from '../types/message.js';

/**
 * Images of stored conversations as Blobs of their own (records `['i', conversationId, id]`),
 * not as base64 text inside the pages: an append rewrites the conversation's last page, and a
 * data URL of a few hundred kB would be written again with every message until the page
 * fills. A page holds a reference (`open-agent-image:<id>`) where the data URL was. Loaded with
 * `import()` by the first conversation that has an image.
 */
const REFERENCE = 'open-agent-image:';

/** Whether `url` is one of the references pages hold in place of an image. */
export const isImageReference = (url: string): boolean => url.startsWith(REFERENCE);

/**
 * `messages` as pages store them: each `data:` image URL of a user message replaced by a
 * reference, and the images as Blobs by id, to put beside the pages in the same transaction.
 */
export function toStored(messages: readonly Message[]): {
  messages: Message[];
  images: Map<string, Blob>;
} {
  const images = new Map<string, Blob>();
  const stored = messages.map((message): Message => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    return {
      ...message,
      content: message.content.map((part): ContentPart => {
        if (part.type !== 'image_url') return part;
        const blob = dataUrlBlob(part.image_url.url);
        if (!blob) return part;
        const id = newId();
        images.set(id, blob);
        return { type: 'image_url', image_url: { url: `${REFERENCE}${id}` } };
      }),
    };
  });
  return { messages: stored, images };
}

/**
 * Stored messages with their references replaced by data URLs again (what servers take). A
 * reference whose Blob is gone (a damaged store) leaves the part out: sending the reference
 * would make the server refuse the whole conversation.
 */
export async function fromStored(
  messages: readonly Message[],
  images: ReadonlyMap<string, Blob>,
): Promise<Message[]> {
  const urls = new Map<string, string>();
  await Promise.all([...images].map(async ([id, blob]) => urls.set(id, await blobDataUrl(blob))));
  return messages.map((message): Message => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    return {
      ...message,
      content: message.content.flatMap((part): ContentPart[] => {
        if (part.type !== 'image_url' || !isImageReference(part.image_url.url)) return [part];
        const url = urls.get(part.image_url.url.slice(REFERENCE.length));
        return url === undefined ? [] : [{ type: 'image_url', image_url: { url } }];
      }),
    };
  });
}

/** A base64 `data:` URL as a Blob of its type; `undefined` for any other URL. */
function dataUrlBlob(url: string): Blob | undefined {
  const match = /^data:([^;,]*)(;[^,]*)?;base64,/.exec(url);
  if (!match) return undefined;
  let binary: string;
  try {
    binary = atob(url.slice(match[0].length));
  } catch {
    return undefined; // not base64 after all: stored as it came
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return new Blob([bytes], { type: match[1] || 'application/octet-stream' });
}

async function blobDataUrl(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  // In slices: String.fromCharCode with a whole image as arguments overflows the stack.
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return `data:${blob.type || 'application/octet-stream'};base64,${btoa(binary)}`;
}

/** `crypto.getRandomValues`, not `randomUUID`: the latter needs a secure context. */
function newId(): string {
  return Array.from(crypto.getRandomValues(new Uint32Array(3)), (value) => value.toString(36)).join(
    '',
  );
}
