import { nothing } from 'lit';
import { contentText, type ContentPart, type Message, type UserContent } from '../../src/index.js';
import type { Translate } from '../strings/chat-strings.js';
import type * as ImageInput from './image-input.js';

/** What the composer's keys and submit act on: the element's session, seen through a port. */
export interface ComposerPort {
  running(): boolean;
  ready(): boolean;
  history(): readonly Message[];
  stop(): void;
  send(prompt: UserContent): void;
  resend(messageIndex: number, prompt: UserContent): void;
  changed(): void;
  /** Images pasted, dropped or attached are scaled to this many pixels on their longer side. */
  imageMaxSize(): number;
}

/** The last user message of `history`: its index and its content. */
export function lastPrompt(
  history: readonly Message[],
): { index: number; content: UserContent } | undefined {
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index];
    if (message?.role === 'user') return { index, content: message.content };
  }
  return undefined;
}

/** The image URLs of user content. */
export function imagesOf(content: UserContent): string[] {
  return typeof content === 'string'
    ? []
    : content.flatMap((part) => (part.type === 'image_url' ? [part.image_url.url] : []));
}

/**
 * The composer's state: the draft being typed, the images going with it and, after ↑ in an
 * empty box, the user message being edited (Enter resends it in place of the old one; Escape
 * gives up).
 */
export class ComposerInput {
  draft = '';
  /** Images (data URLs) going with the next message. */
  images: string[] = [];
  /** The history index of the user message being edited, until sent or Escape. */
  editing: number | undefined;
  readonly #port: ComposerPort;
  /** The image module, once an image came (or an edited message had some). */
  #imageInput: typeof ImageInput | undefined;

  constructor(port: ComposerPort) {
    this.#port = port;
  }

  readonly input = (value: string): void => {
    this.draft = value;
    this.#port.changed();
  };

  readonly keydown = (event: KeyboardEvent): void => {
    const port = this.#port;
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.submit();
    } else if (event.key === 'Escape' && port.running()) {
      event.preventDefault(); // handled: the element's own Escape (anywhere in it) stops nothing twice
      port.stop();
    } else if (event.key === 'Escape' && this.editing !== undefined) {
      this.editing = undefined;
      this.draft = '';
      this.images = [];
      port.changed();
    } else if (event.key === 'ArrowUp' && this.draft === '' && !port.running()) {
      const last = lastPrompt(port.history());
      if (!last) return;
      event.preventDefault();
      this.edit(last.index, last.content);
    }
  };

  /** Puts the user message at `messageIndex` (its text and images) in the box, to resend it edited. */
  edit(messageIndex: number, content: UserContent): void {
    this.editing = messageIndex;
    this.draft = contentText(content);
    this.images = imagesOf(content);
    if (this.images.length > 0) void this.#loadImageInput().then(() => this.#port.changed());
    this.#port.changed();
  }

  /**
   * Images pasted, dropped or picked (a paste or drop of anything else is left to the
   * browser). The scaler loads on the first one.
   */
  readonly take = (event: Event): void => {
    const files =
      (event as DragEvent).dataTransfer?.files ??
      (event as ClipboardEvent).clipboardData?.files ??
      (event.target as HTMLInputElement).files;
    const images = [...(files ?? [])].filter((file) => file.type.startsWith('image/'));
    // A drop left to the browser would open the file in place of the page.
    if (event.type === 'change') (event.target as HTMLInputElement).value = '';
    else if (images.length > 0 || event.type === 'drop') event.preventDefault();
    if (images.length === 0) return;
    void this.#loadImageInput()
      .then(({ scaledImages }) => scaledImages(images, this.#port.imageMaxSize()))
      .then((urls) => {
        this.images = [...this.images, ...urls];
        this.#port.changed();
      });
  };

  /** The thumbnails of the images going with the next message. */
  attachments(t: Translate): unknown {
    const images = this.images;
    return images.length > 0 && this.#imageInput
      ? this.#imageInput.attachmentsTemplate(
          images,
          (index) => {
            this.images = images.filter((_, at) => at !== index);
            this.#port.changed();
          },
          t,
        )
      : nothing;
  }

  async #loadImageInput(): Promise<typeof ImageInput> {
    return (this.#imageInput ??= await import('./image-input.js'));
  }

  /** Sends the draft (or resends the edited message); nothing while a run goes or when empty. */
  submit(): void {
    const text = this.draft.trim();
    const port = this.#port;
    const images = this.images;
    if ((text === '' && images.length === 0) || port.running() || !port.ready()) return;
    const editing = this.editing;
    const prompt: UserContent =
      images.length === 0
        ? text
        : [
            ...(text ? [{ type: 'text', text } as const] : []),
            ...images.map((url): ContentPart => ({ type: 'image_url', image_url: { url } })),
          ];
    this.draft = '';
    this.images = [];
    this.editing = undefined;
    if (editing === undefined) port.send(prompt);
    else port.resend(editing, prompt);
  }
}
