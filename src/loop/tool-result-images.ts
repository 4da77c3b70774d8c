import type { FittedRequest } from '../context/context-manager.js';
import type { ChatRequest } from '../types/chat-request.js';
import type { ContentPart, Message, ToolMessage } from '../types/message.js';

/** `request` with its tool results' images moved (see {@link moveToolImages}). */
export function withToolImages(
  request: ChatRequest,
  fitted: FittedRequest | undefined,
): ChatRequest {
  return {
    ...request,
    messages: moveToolImages(request.messages, { images: fitted?.acceptsImages !== false }),
  };
}

/**
 * The conversation as servers take tool results with images. OpenAI's chat completions (and
 * so llama.cpp, vLLM, LM Studio) accept only text in a `tool` message, so each such message
 * keeps its text and says where its images went, and one `user` message after the round's
 * results carries them as `image_url` parts — which Ollama's native API receives as `images`.
 * For a model known not to take images (`images: false`), the tool message names each image
 * instead and nothing follows. Stored messages are not changed.
 */
export function moveToolImages(
  messages: readonly Message[],
  { images }: { images: boolean },
): Message[] {
  const sent: Message[] = [];
  let moved: ContentPart[] = [];
  const flush = () => {
    if (moved.length > 0) sent.push({ role: 'user', content: moved });
    moved = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flush();
    if (message.role !== 'tool' || typeof message.content === 'string') {
      sent.push(message);
      continue;
    }
    const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    const pictures = message.content.filter((part) => part.type === 'image_url');
    const count = pictures.length === 1 ? 'Its image' : `Its ${pictures.length} images`;
    const note = images
      ? `[${count} follow${pictures.length === 1 ? 's' : ''} in the next message.]`
      : pictures
          .map(
            (part) =>
              `[${describeImage(part.image_url.url)}: not shown, this model does not take images]`,
          )
          .join('\n');
    sent.push({ ...message, content: [...text, note].join('\n\n') } satisfies ToolMessage);
    if (images) {
      const from = message.name === undefined ? 'a tool' : `the tool "${message.name}"`;
      moved.push(
        { type: 'text', text: `Images returned by ${from} (call ${message.tool_call_id}):` },
        ...pictures,
      );
    }
  }
  flush();
  return sent;
}

/** `image/png, 12.3 kB` for a data URL; the address for any other. */
export function describeImage(url: string): string {
  const data = /^data:([^;,]*)[^,]*,/.exec(url);
  if (!data) return `image ${url}`;
  const bytes = Math.floor(((url.length - data[0].length) * 3) / 4);
  return `image ${data[1] || 'of unknown type'}, ${(bytes / 1000).toFixed(1)} kB`;
}
