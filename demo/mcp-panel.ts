import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { Tool } from '../src/index.js';
import type { McpConnection } from '../src/mcp/index.js';

type PanelState =
  | { phase: 'idle' }
  | { phase: 'connecting' }
  | { phase: 'connected'; connection: McpConnection }
  | { phase: 'failed'; message: string };

/** Where the demo keeps the URL of the last MCP server it connected to. */
const LAST_URL_KEY = 'open-agent-demo:mcp-url';

/** Detail of the `mcp-tools-change` event: the MCP tools to offer beside the built-in ones. */
export interface McpToolsChange {
  tools: Tool[];
}

/**
 * The demo's "MCP server" panel: connect a server by URL, list its tools with their approval
 * defaults (each overridable), disconnect. Fires `mcp-tools-change` with the tools to add to
 * `<agent-chat>`'s `tools`. The MCP entry (and the SDK) load only when Connect is pressed.
 * Names, titles and errors come from a server the user may not control: rendered as text.
 */
export class DemoMcpPanel extends LitElement {
  static override properties = {
    reservedNames: { attribute: false },
    url: { state: true },
    state: { state: true },
    approvals: { state: true },
  };

  /** The built-in tools' names: MCP tools with the same name get the server's prefix. */
  declare reservedNames: readonly string[];
  declare url: string;
  declare state: PanelState;
  /** The user's approval choice per tool name, over the server's default. */
  declare approvals: ReadonlyMap<string, boolean>;

  constructor() {
    super();
    this.reservedNames = [];
    // The last server connected to stays in the box across reloads (not connected again unasked).
    this.url =
      new URL(location.href).searchParams.get('mcp') ?? localStorage.getItem(LAST_URL_KEY) ?? '';
    this.state = { phase: 'idle' };
    this.approvals = new Map();
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    void this.#disconnect();
  }

  async #connect(): Promise<void> {
    await this.#disconnect();
    this.state = { phase: 'connecting' };
    try {
      const { connectMcp } = await import('../src/mcp/index.js');
      const connection = await connectMcp({
        url: this.url.trim(),
        reservedNames: this.reservedNames,
        onToolsChanged: () => this.#announce(),
      });
      this.state = { phase: 'connected', connection };
      localStorage.setItem(LAST_URL_KEY, this.url.trim());
    } catch (error) {
      this.state = {
        phase: 'failed',
        message: error instanceof Error ? error.message : String(error),
      };
    }
    this.#announce();
  }

  async #disconnect(): Promise<void> {
    const { state } = this;
    if (state.phase !== 'connected') return;
    this.state = { phase: 'idle' };
    this.approvals = new Map();
    this.#announce();
    await state.connection.close().catch(() => undefined);
  }

  /** The connection's tools, with the user's approval choices applied. */
  #tools(): Tool[] {
    if (this.state.phase !== 'connected') return [];
    return this.state.connection.tools.map((tool) => {
      const choice = this.approvals.get(tool.name);
      return choice === undefined || choice === tool.needsApproval
        ? tool
        : { ...tool, needsApproval: choice };
    });
  }

  #announce(): void {
    this.requestUpdate();
    this.dispatchEvent(
      new CustomEvent<McpToolsChange>('mcp-tools-change', {
        detail: { tools: this.#tools() },
        bubbles: true,
      }),
    );
  }

  #setApproval(name: string, ask: boolean): void {
    this.approvals = new Map(this.approvals).set(name, ask);
    this.#announce();
  }

  protected override render(): TemplateResult {
    const { state } = this;
    const busy = state.phase === 'connecting';
    return html`
      <section class="mcp">
        <style>
          .mcp-tools li { display: grid; grid-template-columns: minmax(0, 1fr) auto; align-items: center; }
          .mcp-tools li > span { display: grid; min-width: 0; }
          .mcp-tools small, .mcp-error { overflow-wrap: anywhere; }
          .mcp-tools small { color: var(--muted); }
        </style>
        <h2>MCP server</h2>
        <form class="row" @submit=${(event: Event) => {
          event.preventDefault();
          void this.#connect();
        }}>
          <input type="url" required placeholder="http://127.0.0.1:3001/mcp" aria-label="MCP server URL" .value=${this.url}
            @input=${(event: Event) => (this.url = (event.target as HTMLInputElement).value)} ?disabled=${busy} />
          ${
            state.phase === 'connected'
              ? html`<button type="button" @click=${() => void this.#disconnect()}>Disconnect</button>`
              : html`<button type="submit" ?disabled=${busy}>${busy ? 'Connecting…' : 'Connect'}</button>`
          }
        </form>
        ${state.phase === 'failed' ? html`<p class="problem mcp-error" role="alert">${state.message}</p>` : nothing}
        ${state.phase === 'connected' ? this.#toolList(state.connection) : html`<p class="hint">Tools from a Model Context Protocol server (Streamable HTTP), called straight from this page.</p>`}
      </section>`;
  }

  #toolList(connection: McpConnection): TemplateResult {
    const { server, toolInfo } = connection;
    return html`
      <p class="ok mcp-server">Connected to ${server.name} ${server.version} (${connection.transport}): ${toolInfo.length} tools</p>
      <ul class="tools mcp-tools">
        ${toolInfo.map((info) => {
          const ask = this.approvals.get(info.name) ?? info.needsApproval;
          return html`<li>
            <span><strong class="mcp-tool-name">${info.name}</strong><small>${info.title}${info.annotations.readOnlyHint === true ? ' · server says read-only' : ''}${info.annotations.destructiveHint === false ? ' · server says not destructive' : ''}</small></span>
            <label class="ask" title="Ask for approval before each call">
              <input type="checkbox" .checked=${ask} @change=${(event: Event) => this.#setApproval(info.name, (event.target as HTMLInputElement).checked)} />
              ask first
            </label>
          </li>`;
        })}
      </ul>`;
  }
}
