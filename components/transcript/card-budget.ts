import type { Entry } from './entry-types.js';

/** How many tool cards one render may build (new, or rebuilt because a field shown changed). */
export const CARDS_PER_RENDER = 20;

/**
 * Spreads the building of many tool cards over several renders. A response with 200 calls made
 * one render build 200 cards (~130 ms of DOM, a long task; issue 27): here a render builds at
 * most {@link CARDS_PER_RENDER}, in order; a card past the budget keeps what it showed (a new
 * one, with all the cards after it, waits), and the host renders again in a later task
 * (`deferred` lists the entries to render again), until every card is built.
 *
 * @example
 * const budget = new CardBudget();
 * render(entries.map((entry) => entryTemplate(entry, actions, t, undefined, false, budget)));
 * if (budget.deferred.size > 0) setTimeout(() => host.requestUpdate(), 0);
 */
export class CardBudget {
  /** Entries with a card this render did not build: render them again in a later task. */
  readonly deferred = new Set<Entry>();
  /**
   * A tool card this render could not show because the cards' code is not loaded (it loads
   * after the first paint only where tools are set): the host loads it and renders again.
   */
  cardsMissing = false;
  #left: number;

  constructor(perRender = CARDS_PER_RENDER) {
    this.#left = perRender;
  }

  /** Whether `entry` may build one more card in this render (else it is marked deferred). */
  take(entry: Entry): boolean {
    if (this.#left > 0 && !this.deferred.has(entry)) {
      this.#left--;
      return true;
    }
    this.deferred.add(entry);
    return false;
  }
}
