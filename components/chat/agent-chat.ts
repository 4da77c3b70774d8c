import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { repeat } from 'lit/directives/repeat.js';
import type { Client, UserContent } from '../../src/index.js';
import { bannerTemplate, headerTemplate } from './chat-controls.js';
import { chatStyles } from './chat-styles.js';
import { ComposerInput } from './composer-input.js';
import { composerView } from './composer-view.js';
import { ChatSession } from './chat-session.js';
import { chatSessionHost } from './chat-session-host.js';
import { copyCode } from '../markdown/copy-code.js';
import type { RowActions } from './message-row.js';
import { loadMessageRow } from './message-row-loader.js';
import { entryTemplate } from '../transcript/entry-template.js';
import { CardBudget } from '../transcript/card-budget.js';
import { FrameScheduler } from '../markdown/frame-scheduler.js';
import { MessageWindow } from './message-window.js';
import { downIcon } from './icons.js';
import { ScrollFollower } from './scroll-follower.js';
import { themeStyles } from './theme-styles.js';
import type { ToolCardActions } from '../tool-card/tool-card.js';
import { toolCardActions } from '../tool-card/tool-card-actions.js';
import { markdownRenderer } from '../markdown/markdown-loader.js';
import { loadToolCards, toolCards } from '../tool-card/tool-card-loader.js';
import { pageLocale, translator, warmNumbers, type Translate } from '../strings/chat-strings.js';
import { CLIENT_SETTINGS } from './agent-chat-properties.js';
import { AgentChatSettings } from './agent-chat-settings.js';
import { DrawerFollower } from './drawer-follower.js';

/** Up to this width (the styles' container query) the side list covers the chat. */
const NARROW = 640;

/**
 * `<agent-chat>`: a complete chat with an agent. Set `base-url` and `model` (or the
 * `backend` or `client` property) and it runs the open-agent loop, rendering only the
 * runtime's events: streaming markdown (sanitised), reasoning, tool-call cards with
 * approvals, errors with retry. With `conversation-id` the conversation persists in
 * IndexedDB and a side list manages saved conversations.
 *
 * Events: `agent-event` (each runtime event), `agent-run-end`, `agent-error`,
 * `conversation-change`, `model-change` (a model picked in `<agent-model-picker>`, the opt-in
 * model picker of `open-agent/components/model-picker`, which goes in the `header` slot).
 * Theming: `--agent-chat-*` custom properties and `::part`.
 *
 * @example
 * <agent-chat base-url="http://localhost:11434/v1" model="qwen3:4b" conversation-id="main"></agent-chat>
 * <script type="module">
 *   import 'open-agent/components';
 *   document.querySelector('agent-chat').tools = [calculator];
 * </script>
 */
export class AgentChat extends AgentChatSettings {
  readonly #follower = new ScrollFollower(() => this.requestUpdate());
  readonly #drawer = new DrawerFollower(NARROW, {
    isOpen: () => this.sidebarOpen,
    setOpen: (open) => (this.sidebarOpen = open),
  });
  readonly #scheduler = new FrameScheduler();
  readonly #session: ChatSession;
  readonly #actions: ToolCardActions;
  #messageActions: RowActions | undefined;
  readonly #window = new MessageWindow({
    changed: () => {
      this.requestUpdate();
      return this.updateComplete;
    },
    following: () => this.#follower.following,
  });
  readonly #input = new ComposerInput({
    running: () => this.#session.running,
    ready: () => this.#session.client !== undefined,
    history: () => this.#session.client?.history ?? [],
    stop: () => this.stop(),
    send: (text) => {
      this.#follower.jump();
      void this.send(text);
    },
    resend: (index, text) => {
      this.#follower.jump();
      void this.#session.resend(index, text);
    },
    changed: () => this.requestUpdate(),
    imageMaxSize: () => this.imageMaxSize || 1024,
  });

  constructor() {
    super();
    this.#session = new ChatSession(
      chatSessionHost(this, {
        markdownOptions: () => ({ allowRemoteImages: this.allowRemoteImages, translate: this.#t }),
        changed: () => this.requestUpdate(),
        loaded: () => this.#onLoaded(),
      }),
      this.#scheduler,
    );
    this.#actions = toolCardActions(this.#session, {
      changed: () => this.requestUpdate(),
      focusEditor: (part) => {
        void this.updateComplete.then(() =>
          this.renderRoot
            .querySelector<HTMLTextAreaElement>(`textarea[id="draft-${CSS.escape(part.id)}"]`)
            ?.focus(),
        );
      },
    });
  }

  /** The Client in use (built from the attributes, or the `client` property). */
  get activeClient(): Client | undefined {
    return this.#session.client;
  }

  /** True while a run streams. */
  get running(): boolean {
    return this.#session.running;
  }

  /**
   * Sends a prompt (as if typed; text, or text and images as content parts), once the element is configured and its conversation
   * loaded. Resolves when the run ends: `true` without an error, `false` when it failed or
   * could not start (no model configured, a run already going).
   */
  async send(prompt: UserContent): Promise<boolean> {
    await this.updateComplete;
    return this.#session.send(prompt);
  }

  /**
   * Asks again for the last answer. The answer shown so far stays reachable: `‹ 1 / 2 ›`
   * under the new one switches between them.
   */
  async regenerate(): Promise<boolean> {
    await this.updateComplete;
    return this.#session.regenerate();
  }

  /** Stops the run: the partial answer stays. */
  stop(): void {
    this.#session.stop();
  }

  /** Calls the model again after an error, with the same conversation. */
  async retry(): Promise<boolean> {
    await this.updateComplete;
    return this.#session.retry();
  }

  /** Gives the result of an external tool call (one waiting for the page). */
  async submitToolResult(
    toolUseId: string,
    content: unknown,
    options: { isError?: boolean } = {},
  ): Promise<boolean> {
    await this.updateComplete;
    return this.#session.calls.submitToolResult(toolUseId, content, options);
  }

  /** Switches to a new, empty conversation (a new id when persisted). */
  newConversation(): void {
    if (this.conversationId !== undefined) this.#switchTo(crypto.randomUUID());
    else this.#session.reset();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#drawer.attach(this);
    if (this.hasUpdated) this.firstUpdated();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // A run goes on while the element is moved in the DOM (or removed): stop() ends it.
    this.#follower.detach();
    this.#drawer.detach();
    this.#window.disconnect();
  }

  /** The texts in the element's language (see `strings`). */
  #t: Translate = translator(undefined);
  readonly #copyCode = (event: MouseEvent): void => copyCode(event, this.#t);

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.hasUpdated || changed.has('strings'))
      this.#t = translator(this.strings, pageLocale(this));
    const fresh = this.hasUpdated && changed.has('allowRemoteImages');
    if (!this.hasUpdated || fresh || CLIENT_SETTINGS.some((key) => changed.has(key)))
      this.#session.configure({ fresh });
  }

  protected override firstUpdated(): void {
    const log = this.renderRoot.querySelector<HTMLElement>('.log');
    const content = this.renderRoot.querySelector<HTMLElement>('.log-content');
    if (log && content) this.#follower.attach(log, content);
    // After the first paint, so it does not wait: markdown + sanitiser and the tool cards are
    // ready by the first answer, and the row under each message soon after.
    setTimeout(() => warmNumbers(pageLocale(this)), 0);
    setTimeout(() => {
      markdownRenderer();
      this.#painted = true;
      if (this.#mayCallTools()) this.#loadCards();
      void loadMessageRow().then(
        (row) => {
          const session = this.#session;
          this.#messageActions = row.messageActions(this, session, this.#input, this.#window);
          session.markBranches();
          this.requestUpdate();
        },
        () => undefined,
      );
    }, 0);
  }

  /** Set once the first paint is done (what loads after it may load). */
  #painted = false;

  /** Whether a tool card may show soon: tools are set, or a Client of the page's is used. */
  #mayCallTools(): boolean {
    return typeof this.tools === 'function' || this.tools.length > 0 || this.client !== undefined;
  }

  /** Loads the tool cards' code (once), then renders them. */
  #loadCards(): void {
    if (!toolCards()) void loadToolCards().then(() => this.requestUpdate());
  }

  protected override updated(changed: PropertyValues<this>): void {
    // A card to show and no code for it (no tools when the page painted, or a reloaded
    // conversation's calls), or tools set after the first paint: the cards load now.
    if (
      this.#cardBudget.cardsMissing ||
      (this.#painted && (changed.has('tools') || changed.has('client')) && this.#mayCallTools())
    )
      this.#loadCards();
    this.#window.observe(this.renderRoot, () => this.#log());
    // Cards this render left for later: the next batch in a new task (the page paints between).
    if (this.#cardBudget.deferred.size > 0) setTimeout(() => this.requestUpdate(), 0);
  }

  /** The last render's tool-card budget (see CardBudget). */
  #cardBudget = new CardBudget();

  #onLoaded(): void {
    this.#window.reset(this.#session.transcript.entries.length);
    this.#follower.jump();
    this.requestUpdate();
    this.#found?.();
  }

  /** Shows a search result's message once its conversation is loaded (see #switchTo). */
  #found: (() => void) | undefined;

  #switchTo(conversationId: string, messageIndex?: number): void {
    // A narrow layout shows the list over the chat: picking one closes it.
    if (this.sidebarOpen && this.getBoundingClientRect().width <= NARROW) this.sidebarOpen = false;
    // A search result's message: its code loads when it is shown (issue 30).
    this.#found =
      messageIndex === undefined
        ? undefined
        : () => {
            this.#found = undefined;
            // From the row's chunk (loaded after the first paint, before any list shows results).
            this.#messageActions?.reveal(messageIndex);
          };
    if (conversationId === this.conversationId) return this.#found?.();
    this.conversationId = conversationId;
    this.dispatchEvent(
      new CustomEvent('conversation-change', {
        detail: { conversationId },
        bubbles: true,
        composed: true,
      }),
    );
  }

  protected override render(): TemplateResult {
    const session = this.#session;
    const entries = this.#session.transcript.entries;
    const visible = this.#window.visible(entries);
    const store = session.store;
    const managed = store !== undefined && this.client === undefined;
    const t = this.#t;
    const cards = toolCards() !== undefined;
    // Many new tool cards are built a batch per render, the rest in the renders that follow.
    const deferred = this.#cardBudget.deferred;
    const budget = (this.#cardBudget = new CardBudget());
    return html`
      <div class="frame ${managed && this.sidebarOpen ? 'with-sidebar' : ''}" part="frame"
        @keydown=${(event: KeyboardEvent) => {
          if (event.key !== 'Escape' || event.defaultPrevented) return;
          // Escape stops an answer wherever focus is in the element, not only in the message box.
          if (session.running) {
            event.preventDefault();
            this.stop();
          } else if (this.sidebarOpen && this.getBoundingClientRect().width <= NARROW)
            this.sidebarOpen = false;
        }}>
        ${
          managed && this.sidebarOpen
            ? html`<aside id="sidebar" part="sidebar" aria-label=${t('Conversations')}>
              <agent-conversations hide-new-button .strings=${this.strings} .locale=${pageLocale(this)} exportparts="conversation, conversation-current, conversation-list, new-conversation-button, import-button"
                .store=${store} .selected=${session.client?.conversationId}
                @conversation-select=${(event: CustomEvent<{ conversationId: string; messageIndex?: number }>) => this.#switchTo(event.detail.conversationId, event.detail.messageIndex)}></agent-conversations>
            </aside>`
            : nothing
        }
        <div class="main" part="main">
          ${headerTemplate(
            {
              managed,
              sidebarOpen: this.sidebarOpen,
              title: this.model ?? t('Chat'),
              running: session.running,
              context: session.context,
              locale: pageLocale(this),
            },
            {
              toggleSidebar: () => (this.sidebarOpen = !this.sidebarOpen),
              newConversation: () => this.newConversation(),
            },
            t,
          )}
          <div class="log" role="log" aria-live="polite" aria-relevant="additions" aria-label=${t('Conversation')} part="log" tabindex="0"
            @click=${this.#copyCode}><div class="log-content">
            ${this.#window.button(() => this.#log(), t)}
            ${
              entries.length === 0 && !session.loading
                ? html`<div class="empty" part="empty"><slot name="empty"><p>${t(session.client ? 'Start the conversation below.' : 'Set base-url and model (or a backend) to start.')}</p></slot></div>`
                : nothing
            }
            ${session.loading ? html`<p class="loading" part="loading">${t('Loading the conversation…')}</p>` : nothing}
            ${repeat(
              visible,
              (entry) => entry.key,
              (entry) =>
                guard(
                  [
                    entry,
                    entry.version,
                    t,
                    cards,
                    this.#messageActions,
                    this.allowRemoteImages,
                    deferred.has(entry) ? budget : undefined,
                  ],
                  () =>
                    entryTemplate(
                      entry,
                      this.#actions,
                      t,
                      this.#messageActions,
                      this.allowRemoteImages,
                      budget,
                    ),
                ),
            )}
          </div></div>
          ${
            this.#follower.following || entries.length === 0
              ? nothing
              : html`<div class="jump"><button type="button" part="jump-button" @click=${() => this.#follower.jump()}>${downIcon} ${t('Latest')}</button></div>`
          }
          ${this.#banner()}
          ${this.#composer()}
        </div>
      </div>
    `;
  }

  #banner(): TemplateResult | typeof nothing {
    const { error, warning, running } = this.#session;
    return bannerTemplate(
      { error, warning, running },
      { retry: () => void this.retry(), dismiss: () => this.#session.dismiss() },
      this.#t,
    );
  }

  #composer(): TemplateResult {
    const { running, client, loading, transcript } = this.#session;
    return composerView(
      this.#input,
      {
        placeholder: this.placeholder ?? this.#t('Message the agent…'),
        running,
        blocked: !client || loading,
        canRegenerate: transcript.entries.at(-1)?.kind === 'assistant',
      },
      { stop: () => this.stop(), regenerate: () => void this.regenerate() },
      this.#t,
    );
  }

  #log(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.log');
  }

  static override styles = [themeStyles, chatStyles];
}
