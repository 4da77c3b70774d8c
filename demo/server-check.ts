import { html, nothing, type TemplateResult } from 'lit';
import type { ServerReport } from '../src/index.js';

type CheckState =
  | { phase: 'idle' }
  | { phase: 'running'; controller: AbortController }
  | { phase: 'done'; report: ServerReport }
  | { phase: 'failed'; message: string };

const STATUS = { pass: '✓ Pass', warn: '! Warning', fail: '✕ Failed' } as const;

/**
 * "Check this server" in the demo's server settings: `checkServer`'s report (pass / warn /
 * fail, what was seen, the fix). open-agent's model code loads on the first click.
 */
export class ServerCheckPanel {
  state: CheckState = { phase: 'idle' };
  readonly #changed: () => void;

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  async run(baseURL: string, model: string): Promise<void> {
    if (this.state.phase === 'running') this.state.controller.abort();
    const controller = new AbortController();
    this.#set({ phase: 'running', controller });
    try {
      const { checkServer } = await import('../src/index.js');
      const report = await checkServer({
        baseURL,
        ...(model === '' ? {} : { model }),
        signal: controller.signal,
      });
      if (this.state.phase === 'running' && this.state.controller === controller)
        this.#set({ phase: 'done', report });
    } catch (error) {
      if (this.state.phase === 'running' && this.state.controller === controller)
        this.#set({
          phase: 'failed',
          message: error instanceof Error ? error.message : String(error),
        });
    }
  }

  #set(state: CheckState): void {
    this.state = state;
    this.#changed();
  }

  template(baseURL: string, model: string): TemplateResult {
    const state = this.state;
    return html`
      <div class="server-check">
        <button type="button" ?disabled=${baseURL === '' || state.phase === 'running'} @click=${() => void this.run(baseURL, model)}>
          ${state.phase === 'running' ? 'Checking…' : 'Check this server'}</button>
        ${state.phase === 'failed' ? html`<p class="problem" role="alert">${state.message}</p>` : nothing}
        ${
          state.phase === 'done'
            ? html`<ul class="report" aria-label="Server check">
              ${state.report.checks.map(
                (check) => html`<li class=${check.status}>
                  <strong>${STATUS[check.status]} · ${check.id}</strong>
                  <span>${check.detail}</span>
                  ${check.fix === undefined ? nothing : html`<small>Fix: ${check.fix}</small>`}
                </li>`,
              )}
            </ul>
            <small class="note">${state.report.generations} short generations, at most ${state.report.maxOutputTokens} output tokens.</small>`
            : nothing
        }
      </div>`;
  }
}
