import type { FrameScheduler, FrameTask } from '../markdown/frame-scheduler.js';

/**
 * The arguments text of a tool call that is still streaming. Each update carries the
 * whole text so far, so the element's text is replaced (once per frame), not appended.
 */
export class ArgumentsView implements FrameTask {
  #text = '';
  #pending: string | undefined;
  #element: HTMLElement | undefined;
  readonly #scheduler: FrameScheduler | undefined;

  constructor(options: { scheduler?: FrameScheduler } = {}) {
    this.#scheduler = options.scheduler;
  }

  get text(): string {
    return this.#pending ?? this.#text;
  }

  get element(): HTMLElement {
    if (!this.#element) {
      this.#element = document.createElement('pre');
      this.#element.className = 'tool-args';
      this.#element.setAttribute('part', 'tool-arguments');
      // A <pre> has no role that takes a name: as a group, "Arguments" is announced (the card
      // names it in the element's language).
      this.#element.setAttribute('role', 'group');
      this.#element.textContent = this.#text;
    }
    return this.#element;
  }

  /** Shows `text`, the whole arguments text received so far. */
  set(text: string): void {
    if (text === this.text) return;
    this.#pending = text;
    if (this.#scheduler) this.#scheduler.schedule(this);
    else this.flush();
  }

  flush(): void {
    if (this.#pending === undefined) return;
    this.#text = this.#pending;
    this.#pending = undefined;
    if (this.#element) this.#element.textContent = this.#text;
  }
}
