import { css, html, LitElement, nothing, type ReactiveController, type TemplateResult } from 'lit';
import { checkServer, localModels } from '../../src/index.js';
import type { AgentChat } from '../chat/agent-chat.js';
import type { ModelChangeDetail } from '../chat/chat-events.js';
import { themeStyles } from '../chat/theme-styles.js';
import { pageLocale, translator, type Translate } from '../strings/chat-strings.js';
import type * as PanelView from './panel-view.js';

/** An unknown-model error: Ollama's `model "x" not found, try pulling it first`, others' alike. */
const UNKNOWN_MODEL = /model\b.*\b(not found|does not exist|not available)/i;

/**
 * `<agent-model-picker>`: the model picker of `<agent-chat>`, opt-in — put it in the chat's
 * `header` slot and import `open-agent/components/model-picker` (the no-build
 * `agent-chat.js` defines it too). It shows the chat's model as a button in the header; pressed,
 * it opens a panel (loaded then: none of it is in a first load) with the models of the chat's
 * `base-url` server (loaded first, with size and marks for tools, vision, thinking): picking one
 * sets the chat's `model` (same conversation) and fires `model-change` on the chat. Where the
 * server can download, "Get a model…" with a progress bar (percent, bytes, speed, Cancel);
 * "Check this server" shows `checkServer`'s report with the fix for each failure: the panel is
 * the chat's server settings. After an unknown-model error it opens by itself, says which model
 * is missing and offers "Pull MODEL" (Ollama) or the list; the chosen model then answers the
 * message (the chat's `retry()`). With a `backend` or `client` instead of `base-url` it shows
 * the model's name only. Texts come from the chat's `strings`; themed like the chat.
 *
 * Theming: `::part(model-button)`, `::part(model-picker)`, `::part(model-option)`,
 * `::part(check-server-button)`, `::part(server-report)`.
 *
 * @example
 * <agent-chat base-url="http://localhost:11434/v1" model="qwen3:4b">
 *   <agent-model-picker slot="header"></agent-model-picker>
 * </agent-chat>
 * <script type="module">
 *   import 'open-agent/components';
 *   import 'open-agent/components/model-picker';
 * </script>
 */
export class AgentModelPicker extends LitElement {
  /** The chat this picker is in (its closest `<agent-chat>`), once that is defined. */
  #chat: AgentChat | undefined;
  /** The panel's view (loaded on first open) while it is open. */
  #panel: typeof PanelView | undefined;
  /** The chat's model the server did not have, while the panel offers to pull or replace it. */
  #missing: { model: string; pull: boolean } | undefined;
  /** What the header shows, as of the chat's last update: re-rendered only when it changes. */
  #shown: readonly unknown[] = [];

  /** Follows the chat's updates (a Lit controller on it): its model, server and texts. */
  readonly #follow: ReactiveController = {
    hostUpdated: () => {
      const shown = this.#state();
      if (shown.some((value, index) => value !== this.#shown[index])) this.requestUpdate();
    },
  };

  readonly #onError = (event: CustomEvent<{ error: Error }>): void => {
    const chat = this.#chat;
    const message = event.detail.error.message;
    if (!chat?.model || !this.#canPick(chat) || !UNKNOWN_MODEL.test(message)) return;
    this.#missing = { model: chat.model, pull: /try pulling it/i.test(message) };
    this.#open();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    const chat = this.closest('agent-chat');
    if (!chat) return;
    // The picker's module may run before `open-agent/components` defines the chat.
    void customElements.whenDefined('agent-chat').then(() => {
      if (!this.isConnected || this.closest('agent-chat') !== chat || this.#chat) return;
      this.#chat = chat;
      chat.addController(this.#follow);
      chat.addEventListener('agent-error', this.#onError);
      this.requestUpdate();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#chat?.removeController(this.#follow);
    this.#chat?.removeEventListener('agent-error', this.#onError);
    this.#chat = undefined;
    this.#close();
  }

  /** A server to ask for its models: `base-url`, not a backend or a ready Client. */
  #canPick(chat: AgentChat): boolean {
    return chat.baseUrl !== undefined && chat.backend === undefined && chat.client === undefined;
  }

  #state(): unknown[] {
    const chat = this.#chat;
    return chat ? [chat.model, chat.baseUrl, this.#canPick(chat), chat.strings] : [];
  }

  #t(chat: AgentChat): Translate {
    return translator(chat.strings, pageLocale(chat));
  }

  /** Opens the panel (its code loads on first use). */
  #open(): void {
    void import('./panel-view.js').then((view) => {
      this.#panel = view;
      this.requestUpdate();
    });
  }

  #close(): void {
    this.#panel = undefined;
    this.#missing = undefined;
    this.requestUpdate();
  }

  /** A model picked (or downloaded): the chat's model; after an unknown-model error, its answer. */
  async #select(model: string): Promise<void> {
    const chat = this.#chat;
    const answer = this.#missing !== undefined;
    this.#close();
    if (!chat) return;
    chat.model = model;
    chat.dispatchEvent(
      new CustomEvent<ModelChangeDetail>('model-change', {
        detail: { model },
        bubbles: true,
        composed: true,
      }),
    );
    if (answer) await chat.retry();
  }

  protected override render(): TemplateResult | typeof nothing {
    const chat = this.#chat;
    this.#shown = this.#state();
    if (!chat) return nothing;
    const t = this.#t(chat);
    const title = chat.model ?? t('Chat');
    if (!this.#canPick(chat)) return html`<span class="title">${title}</span>`;
    const open = this.#panel !== undefined;
    return html`<button type="button" class="model-button" part="model-button" aria-haspopup="dialog" aria-expanded=${open ? 'true' : 'false'}
      aria-label=${t('{model}: choose a model', { model: title })} @click=${() => (open ? this.#close() : this.#open())}><span class="name">${title}</span><span aria-hidden="true">▾</span></button>
      ${this.#panel?.panelTemplate({
        chat,
        missing: this.#missing,
        api: { localModels, checkServer },
        t,
        locale: pageLocale(chat),
        select: (model) => void this.#select(model),
        close: () => this.#close(),
      })}`;
  }

  static override styles = [
    themeStyles,
    // In the header's slot, whose box clips (4px out: the button's focus ring shows whole): the
    // panel is placed against the chat's main column.
    css`
      :host { display: block; min-width: 0; }
      .title { font-weight: 600; }
      .title, .name { display: block; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .model-button { font-size: 1em; font-weight: 600; border-color: transparent; padding: 4px 8px; max-width: 100%; }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'agent-model-picker': AgentModelPicker;
  }
}
