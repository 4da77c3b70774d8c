import { closeInline } from './close-inline.js';
import { chunkSource, nextChunk, type Chunk } from './markdown-chunks.js';
import { translateOf, type MarkdownOptions, type RenderMarkdown } from './render-markdown.js';
import { withinSlice } from './render-slice.js';
import { ShowMore } from './show-more.js';

/** The text a {@link ChunkedMarkdown} shows: all of it received so far, and whether it is complete. */
export interface MarkdownSource {
  readonly text: string;
  readonly finished: boolean;
}

/**
 * Renders a growing (or stored) markdown text into `element` chunk by chunk ({@link nextChunk}):
 * each chunk is rendered once, into a block of its own, and never touched again; only the
 * growing rest (shorter than a chunk) is rendered again on each update. Rendering stops for the
 * task once its time slice is spent ({@link withinSlice}) and goes on in the next frame, so
 * neither a 1 MB stream nor opening a 1 MB answer makes a long task. Past `fold` characters the
 * rest waits behind a "Show more" button, neither rendered nor laid out until asked for.
 */
export class ChunkedMarkdown {
  readonly #element: HTMLElement;
  readonly #source: () => MarkdownSource;
  readonly #render: RenderMarkdown;
  readonly #options: MarkdownOptions;
  readonly #fold: number;
  readonly #tail: HTMLElement;
  #tailText = '';
  #done = 0;
  #start: Omit<Chunk, 'end'> = { fence: undefined, dedent: false };
  #more: { toggle: ShowMore; at: number } | undefined;
  #frame: number | undefined;

  constructor(options: {
    element: HTMLElement;
    source: () => MarkdownSource;
    render: RenderMarkdown;
    markdown: MarkdownOptions;
    fold: number;
  }) {
    this.#element = options.element;
    this.#source = options.source;
    this.#render = options.render;
    this.#options = options.markdown;
    this.#fold = options.fold;
    this.#tail = newBlock();
    this.#element.replaceChildren(this.#tail);
    this.update();
  }

  /** The text grew or finished (or the reader expanded it): render what is new, within the slice. */
  update(): void {
    const { text, finished } = this.#source();
    let rendered = 0;
    let caughtUp = false;
    let collapsed = false;
    // One chunk always, so a short answer shows at once; more only while the slice lasts.
    while (rendered === 0 || withinSlice()) {
      collapsed = this.#collapsed(text);
      if (collapsed) break;
      const chunk = nextChunk(text, this.#done, { final: finished, fence: this.#start.fence });
      if (chunk.end <= this.#done) {
        caughtUp = true;
        break;
      }
      this.#freeze(text, chunk);
      rendered++;
    }
    const behind = !caughtUp && !collapsed;
    if (behind) this.#later();
    // Said to assistive technology (and seen by the bench): more of this text is on its way.
    if (behind) this.#element.setAttribute('aria-busy', 'true');
    else this.#element.removeAttribute('aria-busy');
    // Behind, the rest shows nothing rather than text a frozen chunk shows too.
    this.#showTail(caughtUp ? text : '', finished);
    if (this.#more) this.#more.toggle.hidden = text.length - this.#more.at;
  }

  /** Whether what is left waits behind "Show more" (creating the button once past the fold). */
  #collapsed(text: string): boolean {
    if (!this.#more) {
      if (this.#done < this.#fold || this.#done >= text.length) return false;
      const toggle = new ShowMore(() => this.update(), translateOf(this.#options));
      this.#more = { toggle, at: this.#done };
      this.#element.append(toggle.overflow, toggle.button);
    }
    return !this.#more.toggle.expanded;
  }

  #freeze(text: string, chunk: Chunk): void {
    const container = this.#more?.toggle.overflow ?? this.#element;
    if (this.#tail.parentNode !== container) container.append(this.#tail);
    const block = newBlock();
    block.append(
      this.#render(chunkSource(text, this.#done, chunk.end, this.#start), this.#options),
    );
    container.insertBefore(block, this.#tail);
    this.#done = chunk.end;
    this.#start = { fence: chunk.fence, dedent: chunk.dedent };
  }

  /** Renders the growing rest (`text` after the frozen chunks), its open inline markup closed for now. */
  #showTail(text: string, finished: boolean): void {
    const rest =
      this.#done < text.length ? chunkSource(text, this.#done, text.length, this.#start) : '';
    if (rest === this.#tailText) return;
    this.#tailText = rest;
    if (rest === '') this.#tail.replaceChildren();
    else
      this.#tail.replaceChildren(this.#render(finished ? rest : closeInline(rest), this.#options));
  }

  #later(): void {
    this.#frame ??= requestAnimationFrame(() => {
      this.#frame = undefined;
      this.update();
    });
  }
}

function newBlock(): HTMLElement {
  const block = document.createElement('div');
  block.className = 'block';
  return block;
}
