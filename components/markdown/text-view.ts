import type { FrameScheduler, FrameTask } from './frame-scheduler.js';

/**
 * Plain streaming text (reasoning): deltas are buffered and appended as text nodes once
 * per frame. Never parsed as markup.
 */
export class TextView implements FrameTask {
  #text: string;
  #pending = '';
  #element: HTMLElement | undefined;
  readonly #scheduler: FrameScheduler | undefined;

  constructor(options: { text?: string; scheduler?: FrameScheduler }) {
    this.#text = options.text ?? '';
    this.#scheduler = options.scheduler;
  }

  get text(): string {
    return this.#text + this.#pending;
  }

  get element(): HTMLElement {
    if (!this.#element) {
      this.#element = document.createElement('div');
      this.#element.className = 'reasoning-text';
      this.#element.textContent = this.#text;
    }
    return this.#element;
  }

  append(delta: string): void {
    this.#pending += delta;
    if (this.#scheduler) this.#scheduler.schedule(this);
    else this.flush();
  }

  flush(): void {
    if (this.#pending === '') return;
    this.#text += this.#pending;
    this.#element?.append(this.#pending);
    this.#pending = '';
  }
}
