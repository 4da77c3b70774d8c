import { html, nothing, type TemplateResult } from 'lit';
import type { HistorySearchResult, HistoryStore, searchHistory } from '../../../src/index.js';
import type { Translate } from '../../strings/chat-strings.js';

// The search box of <agent-conversations>, with what typing in it does and its results: loaded
// when the list is first shown with a store (beside the list's first read, so the box comes with
// the list's items), never in the page's first load. The box is not there before this module
// is: no key typed in it can be lost to code still loading. The index loads with the first
// search (searchHistory).

/** What the search box reads and writes of `<agent-conversations>`. */
export interface SearchBox extends EventTarget, Pick<Element, 'getAttribute' | 'setAttribute'> {
  store: HistoryStore | undefined;
  problem: string | undefined;
  requestUpdate(): void;
}

/** What a box holds, and its results (with text in the box, they replace the list). */
interface BoxState {
  query: string;
  found?: HistorySearchResult[] | undefined;
  timer?: ReturnType<typeof setTimeout>;
  search?: AbortController;
}

/** Each box's text, results, pending pause and search. */
const boxes = new WeakMap<SearchBox, BoxState>();

function stateOf(box: SearchBox): BoxState {
  let state = boxes.get(box);
  if (!state) boxes.set(box, (state = { query: '' }));
  return state;
}

/**
 * The search box, then what shows under it: `list` (the conversations) while it is empty,
 * "Searching…" until the results of what it holds are in, then the results — a click on one
 * dispatches `conversation-select` with its conversation and message.
 */
export function searchView(box: SearchBox, t: Translate, list: TemplateResult): TemplateResult {
  const { query, found } = stateOf(box);
  exportSearchParts(box);
  return html`<div class="search" role="search" part="search">
      <style>
        .search { padding: 8px 10px 2px; }
        .search input { width: 100%; }
      </style>
      <input type="search" part="search-input" aria-label=${t('Search conversations')} placeholder=${t('Search conversations')}
        .value=${query} @input=${(event: Event) => typed(box, (event.target as HTMLInputElement).value)} />
    </div>
    ${
      query.trim() === ''
        ? list
        : found
          ? searchResults(found, t, (result) => open(box, result))
          : html`<p class="empty" role="status">${t('Searching…')}</p>`
    }`;
}

/**
 * A list inside another element's shadow root (`<agent-chat>`'s side list) forwards its parts
 * with `exportparts`: the search box's parts are added by this chunk when it shows, so the page's
 * first load names none of them (issue 30).
 */
function exportSearchParts(box: SearchBox): void {
  const parts = box.getAttribute('exportparts');
  if (parts && !parts.includes('search'))
    box.setAttribute(
      'exportparts',
      `${parts}, search, search-input, search-results, search-result, search-match`,
    );
}

/** A result opens its conversation at its message (`messageIndex` -1: the title matched). */
function open(box: SearchBox, { conversationId, messageIndex }: HistorySearchResult): void {
  box.dispatchEvent(
    new CustomEvent('conversation-select', {
      detail: { conversationId, messageIndex },
      bubbles: true,
      composed: true,
    }),
  );
}

/**
 * The public `searchHistory`, by the module it loads: imported through the public entry, the
 * runtime modules this chunk and the page's first load share would leave the first load's file
 * for small chunks of their own (esbuild's splitting: test/size/first-load-files.test.ts), and
 * handed by `<agent-conversations>` it would be in every first load. The index's code loads with
 * the first search, as searchHistory's does, and the two share each store's index.
 */
const searchOnceLoaded: typeof searchHistory = async (store, query, options) =>
  (await import('../../../src/search/history-index.js')).searchStore(store, query, options);

/**
 * After a key in the search box (`query`, what it now holds): the search waits for a pause in
 * typing (each one waits for the index to be current), and a newer query cancels the older one's.
 */
export function typed(box: SearchBox, query: string, search = searchOnceLoaded): void {
  const state = stateOf(box);
  state.query = query;
  state.found = undefined;
  box.requestUpdate();
  clearTimeout(state.timer);
  state.search?.abort();
  const { store } = box;
  if (!store || query.trim() === '') return;
  state.timer = setTimeout(() => {
    const searching = (state.search = new AbortController());
    search(store, query, { limit: 50, signal: searching.signal }).then(
      (found) => {
        if (searching.signal.aborted) return;
        state.found = found;
        box.requestUpdate();
      },
      (error: unknown) => {
        if (!searching.signal.aborted)
          box.problem = error instanceof Error ? error.message : String(error);
        box.requestUpdate();
      },
    );
  }, 120);
}

/** The results: title, then the matching text with each match marked; a click opens the conversation at that message. */
export function searchResults(
  results: readonly HistorySearchResult[],
  t: Translate,
  open: (result: HistorySearchResult) => void,
): TemplateResult {
  return html`<style>
      .results { list-style: none; margin: 0; padding: 6px; overflow: auto; flex: 1; }
      .result { display: grid; gap: 2px; width: 100%; text-align: start; border: 0; background: none; padding: 8px; border-radius: var(--_radius); }
      .result:hover { background: color-mix(in srgb, var(--_fg) 5%, transparent); }
      .result .title { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 500; }
      .result .snippet { font-size: 0.85em; color: color-mix(in srgb, var(--_muted) 65%, var(--_fg)); line-height: 1.4;
        display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; overflow-wrap: anywhere; }
      .result mark { background: color-mix(in srgb, var(--_accent) 28%, transparent); color: var(--_fg); border-radius: 2px; padding: 0 1px; }
      .result .who { font-size: 0.78em; color: var(--_muted); }
    </style>
    <ul class="results" part="search-results" aria-label=${t('Search results')}>
      ${results.length === 0 ? html`<li class="empty">${t('No matches.')}</li>` : nothing}
      ${results.map(
        (result) => html`<li>
          <button type="button" class="result" part="search-result" @click=${() => open(result)}>
            <span class="title">${result.title}</span>
            <span class="who">${result.role === 'user' ? t('You') : result.role === undefined ? t('Title') : t('Assistant')}</span>
            <span class="snippet">${highlighted(result)}</span>
          </button>
        </li>`,
      )}
    </ul>`;
}

function highlighted({ snippet, ranges }: HistorySearchResult): (string | TemplateResult)[] {
  const pieces: (string | TemplateResult)[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) pieces.push(snippet.slice(at, start));
    pieces.push(html`<mark part="search-match">${snippet.slice(start, end)}</mark>`);
    at = end;
  }
  pieces.push(snippet.slice(at));
  return pieces;
}
