/** Pixels from the bottom that still count as "at the bottom". */
const SLACK = 48;

/**
 * Keeps a scroll container at the bottom while content grows, unless the user scrolled
 * up: then it stays where the user put it until they scroll back down (or `jump()`).
 */
export class ScrollFollower {
  #element: HTMLElement | undefined;
  #following = true;
  #resize: ResizeObserver | undefined;
  #lastTop = 0;
  readonly #onChange: (following: boolean) => void;

  constructor(onChange: (following: boolean) => void) {
    this.#onChange = onChange;
  }

  get following(): boolean {
    return this.#following;
  }

  /** Follows `element` (the scroll container); `content` is its child whose size changes. */
  attach(element: HTMLElement, content: HTMLElement): void {
    if (this.#element === element) return;
    this.detach();
    this.#element = element;
    element.addEventListener('scroll', this.#onScroll, { passive: true });
    // Content grows without scroll events: streamed text, images, and content-visibility
    // giving off-screen messages their real height once they come into view.
    this.#resize = new ResizeObserver(() => this.update());
    this.#resize.observe(content);
  }

  detach(): void {
    this.#element?.removeEventListener('scroll', this.#onScroll);
    this.#resize?.disconnect();
    this.#element = undefined;
  }

  /** After content changed: scroll to the bottom if following. */
  update(): void {
    const element = this.#element;
    if (!element || !this.#following) return;
    element.scrollTop = element.scrollHeight;
    this.#lastTop = element.scrollTop;
  }

  /** Scrolls to the bottom and follows again. */
  jump(): void {
    this.#set(true);
    this.update();
  }

  readonly #onScroll = (): void => {
    const element = this.#element;
    if (!element) return;
    // Only a move up stops following: layout shifts after our own scroll (content-visibility
    // sizing the messages now in view) also fire scroll events, but never move up.
    if (element.scrollHeight - element.scrollTop - element.clientHeight <= SLACK) this.#set(true);
    else if (element.scrollTop < this.#lastTop - 1) this.#set(false);
    this.#lastTop = element.scrollTop;
  };

  #set(following: boolean): void {
    if (following === this.#following) return;
    this.#following = following;
    this.#onChange(following);
  }
}
