import { withinSlice } from './render-slice.js';

/** Characters of plain text appended per piece (cut after a line break where there is one). */
const PIECE = 16_384;

/**
 * A long plain text (a tool result shown whole) appended in pieces of its own, as many per
 * task as its time slice allows ({@link withinSlice}), the rest in the next frames: laying out
 * 1 MB of JSON in one text node took 720 ms in one task. Each piece is a block, so laying out one
 * never lays out the others again.
 */
export class TextSlices {
  readonly element: HTMLElement;
  readonly #text: string;
  #done = 0;

  constructor(text: string) {
    this.#text = text;
    this.element = document.createElement('span');
    this.element.className = 'slices';
    this.#append();
  }

  #append(): void {
    let appended = 0;
    while (this.#done < this.#text.length && (appended === 0 || withinSlice())) {
      const limit = this.#done + PIECE;
      const newline = this.#text.lastIndexOf('\n', limit);
      const end =
        limit >= this.#text.length ? this.#text.length : newline > this.#done ? newline + 1 : limit;
      const piece = document.createElement('span');
      piece.className = 'slice';
      piece.textContent = this.#text.slice(this.#done, end);
      this.element.append(piece);
      this.#done = end;
      appended++;
    }
    const behind = this.#done < this.#text.length;
    if (behind) requestAnimationFrame(() => this.#append());
    if (behind) this.element.setAttribute('aria-busy', 'true');
    else this.element.removeAttribute('aria-busy');
  }
}
