import { LitElement, css, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { errorText } from '../chat/error-text.js';
import type { ConversationSummary, HistoryStore } from '../../src/index.js';
import type * as ConversationSearch from './search/conversation-search.js';
import { exportIcon, renameIcon, trashIcon } from '../chat/icons.js';
import { themeStyles } from '../chat/theme-styles.js';
import { pageLocale, translator, type ChatStrings } from '../strings/chat-strings.js';

/** `detail` of `conversation-select`. */
export interface ConversationSelectDetail {
  conversationId: string;
  /** From a search result: the message to show (an index into the stored messages; -1 for the title). */
  messageIndex?: number;
}

declare global {
  interface HTMLElementEventMap {
    'conversation-select': CustomEvent<ConversationSelectDetail>;
  }
}

/**
 * `<agent-conversations>`: the conversations of a {@link HistoryStore}, newest first, with
 * new, switch, rename, delete, export and import. It changes the store itself and
 * dispatches `conversation-select` (with a fresh id for "New conversation"); the page (or
 * `<agent-chat>`, which uses it as its side list) switches.
 *
 * @example
 * const list = document.createElement('agent-conversations');
 * list.store = indexedDBHistory();
 * list.addEventListener('conversation-select', (event) => chat.conversationId = event.detail.conversationId);
 */
export class AgentConversations extends LitElement {
  static override properties = {
    store: { attribute: false },
    selected: {},
    hideNewButton: { attribute: 'hide-new-button', type: Boolean },
    strings: { attribute: false },
    locale: {},
    items: { state: true },
    renaming: { state: true },
    confirming: { state: true },
    problem: { state: true },
  };

  declare store: HistoryStore | undefined;
  declare selected: string | undefined;
  /** Leave out "New" (`<agent-chat>` has its own "New chat" in its header). */
  declare hideNewButton: boolean;
  /** Its texts in another language; each key is the English text (see `<agent-chat>` `strings`). */
  declare strings: Partial<ChatStrings> | undefined;
  /** The language of dates and numbers (default: the page's `lang`, else the browser's). */
  declare locale: string | undefined;
  declare items: ConversationSummary[];
  declare renaming: string | undefined;
  declare confirming: string | undefined;
  declare problem: string | undefined;
  /** The search box's code (see #searchLoaded). */
  #search: typeof ConversationSearch | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor() {
    super();
    this.items = [];
    this.hideNewButton = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#watch();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('store') && this.isConnected) this.#watch();
  }

  /** Reads the list again (it also refreshes on every change the store reports). */
  async refresh(): Promise<void> {
    const store = this.store;
    if (!store) return;
    try {
      // The search box comes with the list's first items (see #searchLoaded), not a moment after.
      [this.items] = await Promise.all([
        store.list(),
        (this.#searchLoaded ??= import('./search/conversation-search.js').then(
          (search) => (this.#search = search),
          () => undefined,
        )),
      ]);
    } catch (error) {
      this.problem = errorText(error);
    }
  }

  /**
   * The search box loads when the list is first shown with a store, beside the list's first read
   * (issue 30: none of it in the page's first load). Loaded then, not on a first key or focus, so
   * the box is there with the list: nothing moves under a person's pointer and no key is typed
   * into a box whose code is still loading. A failed load leaves the list without the box.
   */
  #searchLoaded: Promise<unknown> | undefined;

  #watch(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = this.store?.subscribe(() => void this.refresh());
    void this.refresh();
  }

  protected override render(): TemplateResult {
    const t = translator(this.strings, this.#locale());
    const list = html`<ul aria-labelledby="title" part="conversation-list">
      ${this.items.length === 0 ? html`<li class="empty">${t('No saved conversations yet.')}</li>` : nothing}
      ${this.items.map((item) => this.#row(item, t))}
    </ul>`;
    return html`
      <div class="head" part="conversations-head">
        <h2 id="title">${t('Conversations')}</h2>
        ${this.hideNewButton ? nothing : html`<button type="button" class="primary" part="new-conversation-button" @click=${this.#new}>${t('New')}</button>`}
        <label class="button" part="import-button">
          ${t('Import')}<input type="file" accept="application/json,.json" class="visually-hidden" @change=${this.#import} />
        </label>
      </div>
      ${this.problem === undefined ? nothing : html`<p class="problem" role="alert">${this.problem}</p>`}
      ${this.#search ? this.#search.searchView(this, t, list) : list}
    `;
  }

  #row(item: ConversationSummary, t: ReturnType<typeof translator>): TemplateResult {
    const name = item.title;
    const current = item.id === this.selected;
    if (this.renaming === item.id) {
      return html`<li class="row editing" part="conversation">
        <input
          aria-label=${t('New title for {name}', { name })}
          .value=${item.title}
          @keydown=${(event: KeyboardEvent) => this.#renameKey(event, item)}
          @blur=${(event: FocusEvent) => void this.#rename(item, (event.target as HTMLInputElement).value)}
        />
      </li>`;
    }
    return html`<li class="row ${current ? 'current' : ''}" part="conversation${current ? ' conversation-current' : ''}">
      <button type="button" class="select" aria-current=${current ? 'true' : 'false'} title=${item.title}
        @click=${() => this.#select(item.id)}>
        <span class="title">${item.title}</span>
        <span class="meta">${item.messageCount === 1 ? t('1 message') : t('{n} messages', { n: item.messageCount })} · ${formatDate(item.updatedAt, this.#locale())}</span>
      </button>
      ${
        this.confirming === item.id
          ? html`<span class="actions confirm" role="group" aria-label=${t('Delete {name}?', { name })}>
            <button type="button" class="danger" @click=${() => void this.#delete(item)}>${t('Delete')}</button>
            <button type="button" @click=${() => (this.confirming = undefined)}>${t('Keep')}</button>
          </span>`
          : html`<span class="actions">
            <button type="button" aria-label=${t('Rename {name}', { name })} title=${t('Rename')} @click=${() => this.#startRename(item)}>${renameIcon}</button>
            <button type="button" aria-label=${t('Export {name}', { name })} title=${t('Export')} @click=${() => void this.#export(item)}>${exportIcon}</button>
            <button type="button" aria-label=${t('Delete {name}', { name })} title=${t('Delete')} @click=${() => (this.confirming = item.id)}>${trashIcon}</button>
          </span>`
      }
    </li>`;
  }

  #locale(): string | undefined {
    return this.locale ?? pageLocale(this);
  }

  #select(conversationId: string): void {
    const detail: ConversationSelectDetail = { conversationId };
    this.dispatchEvent(
      new CustomEvent('conversation-select', { detail, bubbles: true, composed: true }),
    );
  }

  readonly #new = (): void => this.#select(crypto.randomUUID());

  #startRename(item: ConversationSummary): void {
    this.renaming = item.id;
    void this.updateComplete.then(() => {
      const input = this.renderRoot.querySelector<HTMLInputElement>('.editing input');
      input?.focus();
      input?.select();
    });
  }

  #renameKey(event: KeyboardEvent, item: ConversationSummary): void {
    if (event.key === 'Escape') this.renaming = undefined;
    // A blur follows the re-render that removes the input; #rename ignores the second call.
    if (event.key === 'Enter') void this.#rename(item, (event.target as HTMLInputElement).value);
  }

  async #rename(item: ConversationSummary, title: string): Promise<void> {
    if (this.renaming !== item.id) return;
    this.renaming = undefined;
    const trimmed = title.trim();
    if (!this.store || trimmed === '' || trimmed === item.title) return;
    await this.#try(() => this.store?.rename(item.id, trimmed));
  }

  async #delete(item: ConversationSummary): Promise<void> {
    this.confirming = undefined;
    await this.#try(() => this.store?.delete(item.id));
    if (item.id === this.selected) this.#new();
  }

  async #export(item: ConversationSummary): Promise<void> {
    await this.#try(async () => {
      const json = await this.store?.exportConversation(item.id);
      if (json === undefined) return;
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
      link.download = `${
        item.title
          .replace(/[^\w -]+/g, '')
          .trim()
          .slice(0, 40) || 'conversation'
      }.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    });
  }

  readonly #import = async (event: Event): Promise<void> => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file || !this.store) return;
    const store = this.store;
    await this.#try(async () => this.#select(await store.importConversation(await file.text())));
  };

  async #try(action: () => Promise<unknown> | undefined): Promise<void> {
    try {
      this.problem = undefined;
      await action();
    } catch (error) {
      this.problem = errorText(error);
    }
  }

  static override styles = [
    themeStyles,
    css`
      :host { display: flex; flex-direction: column; min-height: 0; min-width: 0; font: inherit; color: var(--_fg); }
      .head { display: flex; align-items: center; gap: 6px; padding-block: 8px; padding-inline: 14px 10px; min-height: 48px; border-bottom: 1px solid var(--_border); }
      .head button, .head .button { padding: 4px 10px; }
      h2 { flex: 1; margin: 0; font-size: 0.95em; font-weight: 600; }
      ul { list-style: none; margin: 0; padding: 6px; overflow: auto; flex: 1; }
      .empty { color: var(--_muted); padding: 8px; font-size: 0.9em; }
      .row { display: flex; align-items: center; gap: 2px; border-radius: var(--_radius); }
      .row:hover { background: color-mix(in srgb, var(--_fg) 5%, transparent); }
      .row.current { background: color-mix(in srgb, var(--_accent) 14%, transparent); }
      .select { flex: 1; min-width: 0; text-align: start; border: 0; background: none; padding: 8px; display: grid; gap: 2px; }
      .select:hover { background: none; }
      .title { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 500; }
      .current .title { color: var(--_accent); }
      .meta { font-size: 0.78em; color: var(--_muted); }
      /* On the tinted row the muted grey fell to 4.05:1 (axe, light theme): nearer the text colour. */
      .current .meta { color: color-mix(in srgb, var(--_muted) 65%, var(--_fg)); }
      .actions { display: flex; gap: 2px; opacity: 0; }
      .row:hover .actions, .row:focus-within .actions, .actions.confirm { opacity: 1; }
      .actions button { border: 0; background: none; padding: 4px 6px; }
      .actions.confirm button { border: 1px solid var(--_border); }
      .row.editing input { flex: 1; margin: 4px; }
      .problem { color: var(--_danger); margin: 8px 12px; font-size: 0.9em; }
      @media (hover: none) { .actions { opacity: 1; } }
    `,
  ];
}

/** "14:05" today, else "12 Mar, 14:05" (in `locale`). */
function formatDate(time: number, locale: string | undefined): string {
  const date = new Date(time);
  const today = new Date().toDateString() === date.toDateString();
  return today
    ? date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString(locale, {
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      });
}
