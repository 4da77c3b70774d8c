import { html, nothing, type TemplateResult } from 'lit';
import type { Translate } from '../strings/chat-strings.js';

/** Entries rendered when a conversation opens; older ones render when scrolled to. */
const INITIAL_WINDOW = 40;
const WINDOW_STEP = 60;

/**
 * Which of a long conversation's entries render: the latest ones when it opens, then earlier
 * ones as the user scrolls up to the "Show earlier" button (or presses it), keeping the view
 * where it was.
 */
export class MessageWindow {
  #start = 0;
  #observer: IntersectionObserver | undefined;
  readonly #changed: () => Promise<unknown>;
  readonly #following: () => boolean;

  /** `changed` re-renders and resolves once rendered. */
  constructor(options: { changed: () => Promise<unknown>; following: () => boolean }) {
    this.#changed = options.changed;
    this.#following = options.following;
  }

  /** A conversation of `count` entries opened: show its latest. */
  reset(count: number): void {
    this.#start = Math.max(0, count - INITIAL_WINDOW);
  }

  /** Shows the entries from `index` on (a search result opened an earlier message). */
  showFrom(index: number): void {
    this.#start = Math.min(this.#start, Math.max(0, index - 1));
  }

  visible<T>(entries: readonly T[]): readonly T[] {
    return this.#start > 0 ? entries.slice(this.#start) : entries;
  }

  /** The "Show earlier" button, while there are earlier entries. */
  button(log: () => HTMLElement | null, t: Translate): TemplateResult | typeof nothing {
    return this.#start > 0
      ? html`<button type="button" class="earlier link" part="earlier-button" @click=${() => this.#showEarlier(log())}>
          ${t('Show {n} earlier messages', { n: Math.min(WINDOW_STEP, this.#start) })}
        </button>`
      : nothing;
  }

  /** After each render: scrolling the button into view shows earlier entries. */
  observe(root: ParentNode, log: () => HTMLElement | null): void {
    const button = root.querySelector('.earlier');
    this.#observer?.disconnect();
    if (!button) return;
    this.#observer ??= new IntersectionObserver((records) => {
      if (records.some((record) => record.isIntersecting) && !this.#following())
        this.#showEarlier(log());
    });
    this.#observer.observe(button);
  }

  disconnect(): void {
    this.#observer?.disconnect();
  }

  #showEarlier(log: HTMLElement | null): void {
    const fromBottom = log ? log.scrollHeight - log.scrollTop : 0;
    this.#start = Math.max(0, this.#start - WINDOW_STEP);
    // After the render the entries above grew: keep the same entry under the user's eyes.
    void this.#changed().then(() => {
      if (log) log.scrollTop = log.scrollHeight - fromBottom;
    });
  }
}
