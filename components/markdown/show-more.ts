import type { Translate } from '../strings/chat-strings.js';

let ids = 0;

/** Dispatched (bubbling) by a "Show more" button as it expands. */
export const SHOW_MORE_EVENT = 'show-more';

/**
 * A "Show more" / "Show less" button and the container it shows and hides: what is past the fold
 * of a very long answer or tool result is neither rendered nor laid out until asked for. A real
 * `<button>` (keyboard-operable) with `aria-expanded` and `aria-controls`.
 */
export class ShowMore {
  readonly overflow: HTMLElement;
  readonly button: HTMLButtonElement;
  #expanded = false;
  #hidden = 0;
  readonly #t: Translate;

  constructor(onToggle: (expanded: boolean) => void, t: Translate) {
    this.#t = t;
    this.overflow = document.createElement('div');
    this.overflow.className = 'overflow';
    this.overflow.id = `overflow-${++ids}`;
    this.overflow.hidden = true;
    this.button = document.createElement('button');
    this.button.type = 'button';
    this.button.className = 'show-more link';
    this.button.setAttribute('part', 'show-more-button');
    this.button.setAttribute('aria-controls', this.overflow.id);
    this.button.addEventListener('click', () => {
      this.#expanded = !this.#expanded;
      this.overflow.hidden = !this.#expanded;
      this.#label();
      // The reader goes on from the fold: a chat that follows its newest line stops following.
      if (this.#expanded) this.button.dispatchEvent(new Event(SHOW_MORE_EVENT, { bubbles: true }));
      onToggle(this.#expanded);
    });
    this.#label();
  }

  get expanded(): boolean {
    return this.#expanded;
  }

  /** How many characters are past the fold (said on the button while collapsed). */
  set hidden(characters: number) {
    if (characters === this.#hidden) return;
    this.#hidden = characters;
    this.#label();
  }

  #label(): void {
    this.button.setAttribute('aria-expanded', String(this.#expanded));
    this.button.textContent = this.#expanded
      ? this.#t('Show less')
      : this.#t('Show more ({n} more characters)', { n: this.#hidden });
  }
}
