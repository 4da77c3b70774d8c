import type { ChunkedMarkdown } from './chunked-markdown.js';
import type { FrameScheduler, FrameTask } from './frame-scheduler.js';
import { loadedMarkdown, loadMarkdown } from './markdown-loader.js';
import type { MarkdownOptions } from './render-markdown.js';

/** Characters of an answer shown before the rest waits behind "Show more". */
const FOLD = 32_000;

/**
 * The rendered markdown of one growing (or stored) text. Deltas are buffered and written once
 * per frame by the markdown chunk's {@link ChunkedMarkdown}: complete chunks are rendered once
 * and never touched again, only the growing rest is rendered again, in time slices, and past
 * {@link FOLD} characters the rest waits behind "Show more". The DOM is created lazily, on
 * first access to `element`, so messages scrolled out of the window cost nothing. Until the
 * markdown chunk has loaded (on the first answer shown), the text shows as plain text.
 */
export class MarkdownView implements FrameTask {
  #text = '';
  #pending = '';
  #element: HTMLElement | undefined;
  #chunked: ChunkedMarkdown | undefined;
  #finished: boolean;
  readonly #scheduler: FrameScheduler | undefined;
  readonly #options: MarkdownOptions;

  constructor(options: {
    text?: string;
    finished?: boolean;
    scheduler?: FrameScheduler;
    markdown?: MarkdownOptions;
  }) {
    this.#text = options.text ?? '';
    this.#finished = options.finished ?? false;
    this.#scheduler = options.scheduler;
    this.#options = options.markdown ?? {};
  }

  /** All text received so far (including what is not yet on screen). */
  get text(): string {
    return this.#text + this.#pending;
  }

  /** The stream ended ({@link finish}): later text is not shown. */
  get finished(): boolean {
    return this.#finished;
  }

  get element(): HTMLElement {
    if (!this.#element) {
      this.#element = document.createElement('div');
      this.#element.className = 'markdown';
      this.#element.setAttribute('part', 'markdown');
      this.#render();
    }
    return this.#element;
  }

  /** Renders everything afresh: on creation, and once the markdown chunk has loaded. */
  #render(): void {
    const element = this.#element;
    if (!element) return;
    const markdown = loadedMarkdown();
    if (!markdown) {
      const plain = document.createElement('div');
      plain.className = 'block plain';
      element.replaceChildren(plain);
      this.#update();
      void loadMarkdown().then(
        () => this.#render(),
        () => undefined,
      );
      return;
    }
    // What the chunked view reads: the text written so far, not what waits for the next frame.
    const source = () => ({ text: this.#text, finished: this.#finished });
    this.#chunked = new markdown.ChunkedMarkdown({
      element,
      source,
      render: markdown.render,
      markdown: this.#options,
      fold: FOLD,
    });
  }

  append(delta: string): void {
    this.#pending += delta;
    if (this.#scheduler) this.#scheduler.schedule(this);
    else this.flush();
  }

  flush(): void {
    if (this.#pending === '') return;
    this.#text += this.#pending;
    this.#pending = '';
    if (!this.#finished) this.#update();
  }

  /** The stream ended: the growing rest is rendered as it is, without its inline markup closed. */
  finish(): void {
    this.#text += this.#pending;
    this.#pending = '';
    if (this.#finished) return;
    this.#finished = true;
    this.#update();
  }

  #update(): void {
    if (this.#chunked) this.#chunked.update();
    // Still loading the renderer: the text as it is (never parsed), up to the fold.
    else if (this.#element?.firstChild)
      this.#element.firstChild.textContent = this.#text.slice(0, FOLD);
  }
}
