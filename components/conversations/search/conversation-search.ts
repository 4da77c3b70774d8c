import { html, nothing, type TemplateResult } from 'lit';
import type { HistorySearchResult, HistoryStore, searchHistory } from '../../../src/index.js';
import type { Translate } from '../../strings/chat-strings.js';

// Loaded when the user first types in the search box of <agent-conversations>. It imports no
// value from the runtime (that would split the first load's modules into chunks of their own):
// <agent-conversations> hands it searchHistory, whose index loads with the first search.

/** What {@link typed} reads and writes of `<agent-conversations>`. */
export interface SearchBox {
  store: HistoryStore | undefined;
  /** What the box holds. */
  query: string;
  found: HistorySearchResult[] | undefined;
  problem: string | undefined;
  requestUpdate(): void;
}

/** Each box's pending pause and search. */
const typing = new WeakMap<
  SearchBox,
  { timer?: ReturnType<typeof setTimeout>; search?: AbortController }
>();

/**
 * After a key in the search box (`query`, what it now holds): the search waits for a pause in
 * typing (each one waits for the index to be current), and a newer query cancels the older one's.
 */
export function typed(
  box: SearchBox,
  query: string,
  search: typeof searchHistory,
  errorText: (error: unknown) => string,
): void {
  box.query = query;
  box.found = undefined;
  box.requestUpdate();
  let state = typing.get(box);
  if (!state) typing.set(box, (state = {}));
  const pending = state;
  clearTimeout(pending.timer);
  pending.search?.abort();
  const { store } = box;
  if (!store || query.trim() === '') return;
  pending.timer = setTimeout(() => {
    const searching = (pending.search = new AbortController());
    search(store, query, { limit: 50, signal: searching.signal }).then(
      (found) => {
        if (searching.signal.aborted) return;
        box.found = found;
        box.requestUpdate();
      },
      (error: unknown) => {
        if (!searching.signal.aborted) box.problem = errorText(error);
      },
    );
  }, 120);
}

/**
 * What shows under the box: `undefined` while it is empty (the list of conversations shows),
 * "Searching…" until the results of what it holds are in, then the results.
 */
export function searchView(
  box: SearchBox,
  t: Translate,
  open: (result: HistorySearchResult) => void,
): TemplateResult | undefined {
  if (box.query.trim() === '') return undefined;
  return box.found
    ? searchResults(box.found, t, open)
    : html`<p class="empty" role="status">${t('Searching…')}</p>`;
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
