import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { AgentChat } from '../components/index.js';
import {
  discoverEndpoints,
  type AgentOptions,
  type ChatBackend,
  type DiscoveredEndpoint,
  type Tool,
} from '../src/index.js';
import { demoModel } from './demo-model.js';
import { endpointTemplate, welcomeTemplate } from './demo-templates.js';
import {
  readSettings,
  saveSettings,
  type DemoSettings,
  type ModelSource,
} from './demo-settings.js';
import { DEMO_TOOLS, demoTools } from './tools/demo-tools.js';
import type { McpToolsChange } from './mcp-panel.js';
import { hasWebGPU } from './web-llm.js';
import { WebLLMPanel } from './web-llm-panel.js';
import { optionsPanel, toolsPanel } from './settings-panels.js';
import { sourceLabel } from './source-label.js';
import { InPageEngines } from './in-page-engines.js';
import { ServerCheckPanel } from './server-check.js';

/** MCP tools with these names get the server's prefix. */
const BUILT_IN_NAMES: readonly string[] = DEMO_TOOLS.map(({ name }) => name);

/**
 * The demo page: a settings panel (model source with endpoint discovery, WebLLM, tools,
 * options) next to `<agent-chat>`. Renders into the light DOM so demo.css styles it.
 */
export class DemoApp extends LitElement {
  static override properties = {
    settings: { state: true },
    endpoints: { state: true },
    scanning: { state: true },
    customURL: { state: true },
    gpu: { state: true },
    settingsOpen: { state: true },
  };

  declare settings: DemoSettings;
  declare endpoints: DiscoveredEndpoint[] | undefined;
  declare scanning: boolean;
  declare customURL: string;
  /** Whether WebLLM can run here (a WebGPU adapter); `undefined` while asking. */
  declare gpu: boolean | undefined;
  /** On a narrow screen the settings fold away behind one button (closed at first). */
  declare settingsOpen: boolean;
  #tools: Tool[] = [];
  #toolsKey = '';
  #mcpTools: Tool[] = [];
  #allTools: Tool[] = [];
  readonly #demoBackend = demoModel();
  readonly #engines: InPageEngines;
  readonly #serverCheck = new ServerCheckPanel(() => this.requestUpdate());
  readonly #webLLM = new WebLLMPanel(() => this.requestUpdate());
  readonly #options: Partial<AgentOptions>;
  #scan: AbortController | undefined;

  constructor() {
    super();
    this.settings = readSettings();
    this.#engines = new InPageEngines(() => this.requestUpdate(), {
      ...(this.settings.seed === undefined ? {} : { seed: this.settings.seed }),
    });
    const { maxRetries, toolChoice } = this.settings;
    this.#options = {
      ...(maxRetries === undefined ? {} : { maxRetries }),
      ...(toolChoice === undefined ? {} : { toolChoice }),
    };
    this.scanning = false;
    this.customURL = '';
    void hasWebGPU().then((gpu) => (this.gpu = gpu));
    this.settingsOpen = false;
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    saveSettings(this.settings);
    if (this.settings.source === 'server' && !new URL(location.href).searchParams.has('baseURL'))
      void this.#discover();
  }

  #update(patch: Partial<DemoSettings>): void {
    this.settings = { ...this.settings, ...patch };
    saveSettings(this.settings);
  }

  #typing: ReturnType<typeof setTimeout> | undefined;

  /** A typed base URL or model takes effect once the typing pauses (no blur or Enter needed). */
  #updateAsTyped(patch: Partial<DemoSettings>): void {
    clearTimeout(this.#typing);
    this.#typing = setTimeout(() => this.#update(patch), 400);
  }

  /**
   * The chat's tools, read before every model call: an MCP server that changes its list
   * mid-run reaches the next call without restarting the chat.
   */
  readonly #liveTools = (): readonly Tool[] => this.#currentTools();

  /** The same array while the tool settings are unchanged. */
  #currentTools(): Tool[] {
    const { tools, approval } = this.settings;
    const key = `${[...tools].sort().join()}|${[...approval].sort().join()}`;
    if (key !== this.#toolsKey) {
      this.#toolsKey = key;
      this.#tools = demoTools(tools, approval);
      this.#allTools = [...this.#tools, ...this.#mcpTools];
    }
    return this.#allTools;
  }

  #backend(): ChatBackend | undefined {
    if (this.settings.source === 'demo') return this.#demoBackend;
    const webLLM = this.#webLLM.state;
    if (this.settings.source === 'webllm' && webLLM.phase === 'ready') return webLLM.backend;
    if (this.settings.source === 'cpu') return this.#engines.cpuBackend()?.backend;
    if (this.settings.source === 'chrome' && this.#engines.chromeUsable)
      return this.#engines.chrome;
    return undefined;
  }

  /** The model name `<agent-chat>` sends, for the sources that are not a server. */
  #engineModel(): string | undefined {
    const { source } = this.settings;
    if (source === 'demo') return 'demo-model';
    const webLLM = this.#webLLM.state;
    if (source === 'webllm') return webLLM.phase === 'ready' ? webLLM.model : undefined;
    if (source === 'cpu') return this.#engines.cpuBackend()?.model;
    if (source === 'chrome') return this.#engines.chromeUsable ? 'chrome-built-in' : undefined;
    return undefined;
  }

  protected override render(): TemplateResult {
    const { settings } = this;
    const backend = this.#backend();
    const serverReady =
      settings.source === 'server' && settings.baseURL !== '' && settings.model !== '';
    return html`
      <div class="layout">
        <aside class="settings ${this.settingsOpen ? 'open' : ''}" aria-label="Settings">
          <div class="settings-head">
            <h1>open-agent <span>demo</span></h1>
            <button type="button" class="settings-toggle" aria-expanded=${this.settingsOpen ? 'true' : 'false'}
              @click=${() => (this.settingsOpen = !this.settingsOpen)}>${this.settingsOpen ? 'Hide settings' : 'Settings'}</button>
          </div>
          ${this.#sourcePanel()}
          ${toolsPanel(settings, (patch) => this.#update(patch))}
          <demo-mcp-panel .reservedNames=${BUILT_IN_NAMES} @mcp-tools-change=${(
            event: CustomEvent<McpToolsChange>,
          ) => {
            this.#mcpTools = event.detail.tools;
            this.#allTools = [...this.#tools, ...this.#mcpTools];
            this.requestUpdate();
          }}></demo-mcp-panel>
          ${optionsPanel(settings, (patch) => this.#update(patch))}
        </aside>
        <main class="chat">
          <agent-chat
            conversation-id=${settings.conversationId}
            base-url=${ifDefined(serverReady ? settings.baseURL : undefined)}
            model=${ifDefined(settings.source === 'server' ? settings.model || undefined : this.#engineModel())}
            system-prompt=${settings.systemPrompt}
            max-tool-iterations=${settings.maxToolIterations}
            auto-execute=${settings.autoExecute ? 'true' : 'false'}
            ?allow-remote-images=${settings.allowRemoteImages}
            ?sidebar-open=${matchMedia('(min-width: 1100px)').matches}
            .backend=${backend}
            .options=${this.#options}
            .tools=${this.#liveTools}
            @conversation-change=${(event: CustomEvent<{ conversationId: string }>) => this.#update({ conversationId: event.detail.conversationId })}
            @model-change=${(event: CustomEvent<{ model: string }>) => this.#update({ model: event.detail.model })}
          >
            ${
              // A server's chat has the model picker in its header (the server's models,
              // downloads, "Check this server"); an engine's, the engine's name.
              serverReady
                ? html`<agent-model-picker slot="header"></agent-model-picker>`
                : html`<span slot="header" class="chat-title">${sourceLabel(settings, this.#engineModel())}</span>`
            }
            ${welcomeTemplate(
              {
                source: settings.source,
                ready: backend !== undefined || serverReady,
                loading: settings.source === 'cpu' ? this.#engines.cpuLoading : undefined,
              },
              { send: (text) => void this.#chat()?.send(text), nextStep: () => this.#nextStep() },
            )}
          </agent-chat>
        </main>
      </div>
    `;
  }

  #chat(): AgentChat | null {
    return this.querySelector('agent-chat');
  }

  #sourcePanel(): TemplateResult {
    const { source } = this.settings;
    const option = (value: ModelSource, label: string, hint: string, disabled = false) => html`
      <label class="choice">
        <input type="radio" name="source" .checked=${source === value} ?disabled=${disabled} @change=${() => this.#update({ source: value })} />
        <span><strong>${label}</strong><small>${hint}</small></span>
      </label>`;
    return html`
      <section>
        <h2>Model</h2>
        <div role="radiogroup" aria-label="Model source">
          ${option('demo', 'Built-in demo model', 'Scripted rules, works offline — not an LLM')}
          ${option('server', 'Local server', 'Ollama, LM Studio, llama.cpp, vLLM')}
          ${option('cpu', 'In the browser — CPU, any laptop', 'A small model (≈ 70 MB) runs in the page: no GPU, no server')}
          ${option('chrome', 'Chrome built-in AI', this.#engines.chromeUsable ? "Chrome's own on-device model (Gemini Nano)" : 'Not available in this browser', !this.#engines.chromeUsable && source !== 'chrome')}
          ${option('webllm', 'In the browser (WebLLM)', this.gpu === false ? 'Needs a WebGPU GPU: none is usable here' : 'Runs on your GPU after a download (needs the network once)', this.gpu === false && source !== 'webllm')}
        </div>
        ${source === 'server' ? this.#serverPanel() : nothing}
        ${source === 'webllm' ? this.#webLLM.template(this.settings.webLLMModel, this.gpu, (webLLMModel) => this.#update({ webLLMModel })) : nothing}
        ${source === 'cpu' ? this.#engines.cpuPanel() : nothing}
        ${source === 'chrome' ? this.#engines.chromePanel() : nothing}
      </section>`;
  }

  #serverPanel(): TemplateResult {
    const { baseURL, model } = this.settings;
    const models = this.endpoints?.find((endpoint) => endpoint.baseURL === baseURL)?.models ?? [];
    return html`
      <div class="panel">
        <div class="row">
          <button type="button" class="primary" @click=${() => void this.#discover()} ?disabled=${this.scanning}>
            ${this.scanning ? 'Scanning…' : 'Find local servers'}
          </button>
        </div>
        <form class="row" @submit=${(event: SubmitEvent) => {
          event.preventDefault();
          void this.#discover();
        }}>
          <label class="visually-hidden" for="custom-url">Another server URL</label>
          <input id="custom-url" placeholder="Another URL, e.g. http://192.168.1.20:11434" .value=${this.customURL}
            @input=${(event: Event) => (this.customURL = (event.target as HTMLInputElement).value)} />
          <button type="submit" ?disabled=${this.scanning || this.customURL.trim() === ''}>Probe</button>
        </form>
        ${this.endpoints ? html`<ul class="endpoints" aria-live="polite">${this.endpoints.map((endpoint) => endpointTemplate(endpoint, this.settings, (model) => this.#update({ source: 'server', baseURL: endpoint.baseURL, model })))}</ul>` : nothing}
        <label>Base URL
          <input .value=${baseURL} @input=${(event: Event) => this.#updateAsTyped({ baseURL: (event.target as HTMLInputElement).value.trim() })} />
        </label>
        <label>Model
          <input list="models" .value=${model} placeholder="e.g. qwen3:4b" @input=${(event: Event) => this.#updateAsTyped({ model: (event.target as HTMLInputElement).value.trim() })} />
          <datalist id="models">${models.map((id) => html`<option value=${id}></option>`)}</datalist>
        </label>
        ${this.#serverCheck.template(baseURL, model)}
      </div>`;
  }

  /** The one click that gets a chat without a model going: find servers (and open the settings). */
  #nextStep(): void {
    this.settingsOpen = true;
    if (this.settings.source === 'server') void this.#discover();
    else this.#update({ source: 'demo' });
  }

  async #discover(): Promise<void> {
    this.#scan?.abort();
    const scan = new AbortController();
    this.#scan = scan;
    this.scanning = true;
    const custom = this.customURL.trim();
    try {
      this.endpoints = await discoverEndpoints({
        signal: scan.signal,
        timeoutMs: 1500,
        urls: custom === '' ? [] : [custom],
      });
      const usable = this.endpoints.find((endpoint) => endpoint.status === 'ready');
      if (usable && this.settings.model === '')
        this.#update({ baseURL: usable.baseURL, model: usable.models[0] ?? '' });
    } catch (error) {
      this.endpoints = [
        {
          name: 'Custom',
          baseURL: custom,
          status: 'error',
          models: [],
          message: error instanceof Error ? error.message : String(error),
        },
      ];
    } finally {
      if (this.#scan === scan) this.scanning = false;
    }
  }
}
