import { findBlockBoundary } from './block-boundary.js';
import { closeInline } from './close-inline.js';
import type { FrameScheduler, FrameTask } from './frame-scheduler.js';
import { loadMarkdown, markdownRenderer } from './markdown-loader.js';
import type { MarkdownOptions } from './render-markdown.js';

/** Characters of a growing block re-rendered each frame before it is cut at a line start. */
const LONGEST_BLOCK = 4096;

/**
 * The rendered markdown of one growing text. Deltas are buffered and written once per
 * frame; complete blocks are rendered once and never touched again, only the last
 * (growing) block is re-rendered. The DOM is created lazily, on first access to
 * `element`, so messages scrolled out of the window cost nothing. Until the markdown renderer
 * has loaded (its own chunk, on the first answer shown), the text shows as plain text.
 */
export class MarkdownView implements FrameTask {
  #text = '';
  #pending = '';
  #committed = 0;
  #element: HTMLElement | undefined;
  #tail: HTMLElement | undefined;
  #finished: boolean;
  readonly #scheduler: FrameScheduler | undefined;
  readonly #options: MarkdownOptions;

  constructor(options: { text?: string; finished?: boolean; scheduler?: FrameScheduler; markdown?: MarkdownOptions }) {
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

  /** Renders everything afresh: on creation, and once the renderer has loaded. */
  #render(): void {
    const element = this.#element;
    if (!element) return;
    this.#committed = 0;
    this.#tail = undefined;
    const render = markdownRenderer();
    if (!render) {
      element.replaceChildren(this.#plain(this.#text));
      void loadMarkdown().then(() => this.#render(), () => undefined);
    } else if (this.#finished) {
      element.replaceChildren(render(this.#text, this.#options));
    } else {
      this.#tail = this.#newBlock();
      element.replaceChildren(this.#tail);
      this.#renderStreaming();
    }
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
    if (this.#element && !this.#finished) this.#renderStreaming();
  }

  /**
   * The stream ended: only the last (still growing) block is rendered again. Re-rendering
   * the whole answer here cost 15 ms of markdown plus a fresh layout of every block (30 ms
   * for a 20 KB answer) in one task, and the committed blocks are already final.
   */
  finish(): void {
    this.#text += this.#pending;
    this.#pending = '';
    if (this.#finished) return;
    this.#finished = true;
    if (this.#element) this.#renderStreaming();
    this.#tail = undefined;
  }

  #renderStreaming(): void {
    const element = this.#element;
    const tail = this.#tail;
    const render = markdownRenderer();
    if (!element) return;
    if (!tail || !render) {
      // Still loading the renderer: #render() redoes everything when it arrives.
      if (!render) element.replaceChildren(this.#plain(this.#text));
      return;
    }
    const boundary = findBlockBoundary(this.#text, this.#committed, LONGEST_BLOCK);
    if (boundary > this.#committed) {
      const block = this.#newBlock();
      block.append(render(this.#text.slice(this.#committed, boundary), this.#options));
      element.insertBefore(block, tail);
      this.#committed = boundary;
    }
    const growing = this.#text.slice(this.#committed);
    tail.replaceChildren(render(this.#finished ? growing : closeInline(growing), this.#options));
  }

  /** Text shown as it is (never parsed) while the renderer loads. */
  #plain(text: string): HTMLElement {
    const block = this.#newBlock();
    block.classList.add('plain');
    block.textContent = text;
    return block;
  }

  #newBlock(): HTMLElement {
    const block = document.createElement('div');
    block.className = 'block';
    return block;
  }
}
