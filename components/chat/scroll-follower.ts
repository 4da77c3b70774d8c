/** Pixels from the bottom that still count as "at the bottom". */
const SLACK = 48;

/**
 * Keeps a scroll container at the bottom while content grows, unless the user scrolled
 * up: then it stays where the user put it until they scroll back down (or `jump()`).
 *
 * It never reads layout right after the page wrote to the DOM: reading `scrollHeight`
 * there forces a synchronous layout (36 ms at the end of a long streamed answer). All
 * scrolling happens in a ResizeObserver callback, which runs after the frame's own layout,
 * so the read is free and the new position is painted in the same frame.
 */
export class ScrollFollower {
  #element: HTMLElement | undefined;
  #content: HTMLElement | undefined;
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
    this.#content = content;
    element.addEventListener('scroll', this.#onScroll, { passive: true });
    // Content grows without scroll events: streamed text, images, and content-visibility
    // giving off-screen messages their real height once they come into view. The container
    // shrinks when a banner or a taller composer appears.
    this.#resize = new ResizeObserver(() => this.#pin());
    this.#resize.observe(content);
    this.#resize.observe(element);
  }

  detach(): void {
    this.#element?.removeEventListener('scroll', this.#onScroll);
    this.#resize?.disconnect();
    this.#resize = undefined;
    this.#element = undefined;
    this.#content = undefined;
  }

  /** Scrolls to the bottom after the next layout and follows again. */
  jump(): void {
    this.#set(true);
    const content = this.#content;
    if (!content || !this.#resize) return;
    // Observing again always reports once, after the next layout: a scroll at that point
    // costs no forced layout, even when the content did not change size.
    this.#resize.unobserve(content);
    this.#resize.observe(content);
  }

  /** Runs after layout (ResizeObserver): reading the sizes here is free. */
  #pin(): void {
    const element = this.#element;
    if (!element || !this.#following) return;
    const bottom = element.scrollHeight - element.clientHeight;
    if (element.scrollTop < bottom) element.scrollTop = bottom;
    this.#lastTop = bottom;
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
