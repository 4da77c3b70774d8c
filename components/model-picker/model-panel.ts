import { html, LitElement, nothing, type TemplateResult } from 'lit';
import type {
  checkServer,
  localModels,
  LocalModel,
  LocalModels,
  ServerReport,
} from '../../src/index.js';
import { translator, type Translate } from '../strings/chat-strings.js';
import { formatBytes } from './format-bytes.js';
import { modelPickerStyles } from './model-picker-styles.js';
import { pullTemplate, type PullState } from './pull-view.js';
import { reportTemplate } from './report-view.js';

/**
 * `<agent-model-panel>`: the panel `<agent-model-picker>` opens — the models of the server at
 * `baseUrl` (loaded first, with size and marks for tools, vision, thinking), picking one fires
 * `model-select`; where the server can download, "Get a model…" with a progress bar (percent,
 * bytes, speed, Cancel), the model selected when done; "Check this server" shows
 * `checkServer`'s report. After an unknown-model error (`missing`) it says so first, with
 * "Pull MODEL" where the server said to pull it. The picker loads it when it first opens
 * (panel-view.ts defines it then): no part of any first load.
 *
 * Events: `model-select` (`detail.model`), `picker-close`.
 */
export class AgentModelPanel extends LitElement {
  static override properties = {
    baseUrl: { attribute: false },
    model: { attribute: false },
    missing: { attribute: false },
    fetchFn: { attribute: false },
    api: { attribute: false },
    translateText: { attribute: false },
    locale: { attribute: false },
  };

  declare baseUrl: string;
  declare model: string | undefined;
  /**
   * The chat's model the server did not have (an unknown-model error): said first, with "Pull
   * MODEL" when `pull` (the server said to pull it, and can).
   */
  declare missing: { model: string; pull: boolean } | undefined;
  declare fetchFn: typeof globalThis.fetch | undefined;
  /**
   * `localModels` and `checkServer`, handed in by the picker (its first load has them): imported
   * here, from this lazy chunk, they would split the runtime off the app's first load.
   */
  declare api: { localModels: typeof localModels; checkServer: typeof checkServer };
  declare translateText: Translate;
  declare locale: string | undefined;

  #server: LocalModels | undefined;
  #models: LocalModel[] | undefined;
  #error: string | undefined;
  #showPull = false;
  #draft = '';
  #pull: PullState | undefined;
  #report: ServerReport | 'running' | undefined;

  constructor() {
    super();
    this.baseUrl = '';
    this.translateText = translator(undefined);
  }

  /**
   * Renders into the picker's shadow root, not a root of its own: it takes the picker's theme
   * (the chat's: buttons, inputs, colours) without importing it — an import of those first-load
   * styles from this lazy chunk would split them off the app's first load.
   */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const root = this.getRootNode();
    const sheet = modelPickerStyles.styleSheet;
    if (
      sheet &&
      (root instanceof ShadowRoot || root instanceof Document) &&
      !root.adoptedStyleSheets.includes(sheet)
    ) {
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    }
    void this.#load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#pull?.controller.abort();
  }

  protected override firstUpdated(): void {
    this.renderRoot.querySelector<HTMLElement>('.close')?.focus();
  }

  async #load(): Promise<void> {
    try {
      this.#server ??= await this.api.localModels({
        baseURL: this.baseUrl,
        ...(this.fetchFn ? { fetch: this.fetchFn } : {}),
      });
      this.#models = await this.#server.list();
      this.#error = undefined;
    } catch (error) {
      this.#error = error instanceof Error ? error.message : String(error);
    }
    this.requestUpdate();
  }

  #select(model: string): void {
    this.dispatchEvent(
      new CustomEvent('model-select', { detail: { model }, bubbles: true, composed: true }),
    );
  }

  #close(): void {
    this.dispatchEvent(new CustomEvent('picker-close', { bubbles: true, composed: true }));
  }

  #startPull(name: string): void {
    const pull = this.#server?.pull;
    if (!pull) return;
    const state: PullState = { name, controller: new AbortController() };
    this.#pull = state;
    this.requestUpdate();
    pull(name, {
      signal: state.controller.signal,
      onProgress: (progress) => {
        state.progress = progress;
        this.requestUpdate();
      },
    }).then(
      async () => {
        this.#pull = undefined;
        this.#showPull = false;
        await this.#load();
        this.#select(name);
      },
      (error: unknown) => {
        state.error = error instanceof Error ? error.message : String(error);
        this.requestUpdate();
      },
    );
  }

  async #check(): Promise<void> {
    this.#report = 'running';
    this.requestUpdate();
    this.#report = await this.api.checkServer({
      baseURL: this.baseUrl,
      ...(this.model ? { model: this.model } : {}),
      ...(this.fetchFn ? { fetch: this.fetchFn } : {}),
    });
    this.requestUpdate();
  }

  protected override render(): TemplateResult {
    const t = this.translateText;
    const server = this.#server?.server;
    return html`<div
      class="panel"
      part="model-picker"
      role="dialog"
      aria-label=${t('Models on this server')}
      @keydown=${(event: KeyboardEvent) => event.key === 'Escape' && this.#close()}
    >
      <div class="top">
        <strong
          >${server ? `${server.name}${server.version ? ` ${server.version}` : ''}` : t('Models on this server')}</strong
        >
        <button
          type="button"
          class="close icon"
          part="picker-close-button"
          aria-label=${t('Close')}
          @click=${() => this.#close()}
        >
          ✕
        </button>
      </div>
      ${this.missing ? this.#missing(this.missing, t) : nothing}
      ${this.#error !== undefined ? html`<p class="error" role="alert">${this.#error}</p>` : nothing}
      ${this.#models === undefined && this.#error === undefined ? html`<p class="muted">${t('Loading models…')}</p>` : nothing}
      ${this.#models?.length === 0 ? html`<p class="muted">${t('No models on this server.')}</p>` : nothing}
      ${
        this.#models && this.#models.length > 0
          ? html`<ul class="models" aria-label=${t('Models')}>
              ${this.#models.map((model) => this.#row(model, t))}
            </ul>`
          : nothing
      }
      ${this.#server?.pull ? this.#pullSection(t) : nothing}
      <div class="check">
        <button
          type="button"
          part="check-server-button"
          ?disabled=${this.#report === 'running' || this.#error !== undefined}
          @click=${() => void this.#check()}
        >
          ${this.#report === 'running' ? t('Checking…') : t('Check this server')}
        </button>
        ${this.#report !== undefined && this.#report !== 'running' ? reportTemplate(this.#report, t) : nothing}
      </div>
    </div>`;
  }

  /** After an unknown-model error: which model is missing, and "Pull MODEL" where it can be. */
  #missing(missing: { model: string; pull: boolean }, t: Translate): TemplateResult {
    const { model, pull } = missing;
    return html`<div class="missing" part="missing-model">
      <p class="error">${t('{model} is not on this server.', { model })}</p>
      ${
        // Stays (disabled while a download runs) until the panel closes with the model there.
        pull && this.#server?.pull
          ? html`<button type="button" class="primary" part="pick-model-button" ?disabled=${this.#pull !== undefined && this.#pull.error === undefined} @click=${() => {
              this.#showPull = true;
              this.#draft = model;
              this.#startPull(model);
            }}>${t('Pull {model}', { model })}</button>`
          : nothing
      }
    </div>`;
  }

  #row(model: LocalModel, t: Translate): TemplateResult {
    const current = model.name === this.model;
    const marks = [
      model.loaded === true ? t('loaded') : undefined,
      model.capabilities.tools === true ? t('tools') : undefined,
      model.capabilities.vision === true ? t('vision') : undefined,
      model.capabilities.thinking === true ? t('thinking') : undefined,
    ].filter((mark) => mark !== undefined);
    return html`<li>
      <button
        type="button"
        class="model ${current ? 'current' : ''}"
        part="model-option"
        aria-current=${current ? 'true' : 'false'}
        @click=${() => this.#select(model.name)}
      >
        <span class="name">${model.name}</span>
        <span class="meta">
          ${model.size === undefined ? nothing : html`<span class="size">${formatBytes(model.size, this.locale)}</span>`}
          ${marks.map((mark) => html`<span class="mark">${mark}</span>`)}
        </span>
      </button>
    </li>`;
  }

  #pullSection(t: Translate): TemplateResult {
    if (!this.#showPull && !this.#pull) {
      return html`<button
        type="button"
        class="link get"
        part="get-model-button"
        @click=${() => {
          this.#showPull = true;
          this.requestUpdate();
        }}
      >
        ${t('Get a model…')}
      </button>`;
    }
    return pullTemplate(
      { pull: this.#pull, draft: this.#draft, locale: this.locale },
      {
        input: (value) => {
          this.#draft = value;
          this.requestUpdate();
        },
        start: (event) => {
          event.preventDefault();
          if (this.#draft.trim() !== '') this.#startPull(this.#draft.trim());
        },
        cancel: () => this.#pull?.controller.abort(),
      },
      t,
    );
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'agent-model-panel': AgentModelPanel;
  }
}
