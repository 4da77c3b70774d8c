/**
 * Keeps the conversation list of `<agent-chat>` following the element's width: beside the chat
 * when wide, a drawer over it when narrow. A list open beside the chat closes when the element
 * turns narrow (a desktop window made phone-sized would otherwise leave it covering the chat)
 * and opens again when it turns wide; a drawer the user opens while narrow is left alone.
 */
export class DrawerFollower {
  #observer: ResizeObserver | undefined;
  #narrow: boolean | undefined;
  #reopen = false;
  readonly #widest: number;
  readonly #drawer: { isOpen: () => boolean; setOpen: (open: boolean) => void };

  /** `widest`: the widest the element is narrow at (px); `drawer` reads and sets the list's state. */
  constructor(widest: number, drawer: { isOpen: () => boolean; setOpen: (open: boolean) => void }) {
    this.#widest = widest;
    this.#drawer = drawer;
  }

  attach(element: HTMLElement): void {
    this.#observer ??= new ResizeObserver(([entry]) => {
      if (entry) this.#resized(entry.borderBoxSize[0]?.inlineSize ?? entry.contentRect.width);
    });
    this.#observer.observe(element);
  }

  detach(): void {
    this.#observer?.disconnect();
    this.#narrow = undefined;
  }

  #resized(width: number): void {
    const narrow = width <= this.#widest;
    const was = this.#narrow;
    this.#narrow = narrow;
    if (was === undefined || was === narrow) return;
    if (narrow && this.#drawer.isOpen()) {
      this.#reopen = true;
      this.#drawer.setOpen(false);
    } else if (!narrow && this.#reopen) {
      this.#reopen = false;
      this.#drawer.setOpen(true);
    }
  }
}
