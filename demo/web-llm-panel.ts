import { html, nothing, type TemplateResult } from 'lit';
import type { ChatBackend } from '../src/index.js';
import { loadWebLLM, WEB_LLM_MODELS, type WebLLMProgress } from './web-llm.js';

type WebLLMState =
  | { phase: 'idle' }
  | { phase: 'loading'; progress: WebLLMProgress }
  | { phase: 'ready'; backend: ChatBackend; model: string }
  | { phase: 'failed'; message: string };

/**
 * WebLLM in the demo's model settings: the model to download, its progress, and the
 * backend once it runs in the page (on the GPU).
 */
export class WebLLMPanel {
  state: WebLLMState = { phase: 'idle' };
  readonly #changed: () => void;

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  async load(model: string): Promise<void> {
    this.#set({ phase: 'loading', progress: { progress: 0, text: 'Loading WebLLM…' } });
    try {
      const backend = await loadWebLLM(model, (progress) =>
        this.#set({ phase: 'loading', progress }),
      );
      this.#set({ phase: 'ready', backend, model });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A bare "Failed to fetch" is the model download failing: offline, or the CDN unreachable.
      this.#set({
        phase: 'failed',
        message: /fetch|network/i.test(message)
          ? `The model download needs the network, and it failed (${message}).`
          : message,
      });
    }
  }

  /** `gpu`: whether WebLLM can run here (`undefined` while asking); `choose` picks the model. */
  template(
    model: string,
    gpu: boolean | undefined,
    choose: (model: string) => void,
  ): TemplateResult {
    const { state } = this;
    return html`
      <div class="panel">
        <label>Model to download
          <select .value=${model} ?disabled=${state.phase === 'loading'}
            @change=${(event: Event) => choose((event.target as HTMLSelectElement).value)}>
            ${WEB_LLM_MODELS.map((id) => html`<option value=${id} ?selected=${id === model}>${id}</option>`)}
          </select>
        </label>
        <small class="note">WebLLM runs tools only with these models: about 4–5 GB each, downloaded once into the browser cache.</small>
        <button type="button" class="primary" ?disabled=${state.phase === 'loading' || gpu !== true} @click=${() => void this.load(model)}>
          ${state.phase === 'ready' ? 'Load again' : 'Download and start'}
        </button>
        ${
          state.phase === 'loading'
            ? html`<progress max="1" value=${state.progress.progress} aria-label="Model download"></progress><small>${state.progress.text}</small>`
            : nothing
        }
        ${state.phase === 'failed' ? html`<p class="problem" role="alert">${state.message}</p>` : nothing}
        ${state.phase === 'ready' ? html`<p class="ok">${state.model} is running in this page.</p>` : nothing}
        ${gpu === false ? html`<p class="hint">This browser has no usable WebGPU adapter, so WebLLM cannot run here.</p>` : nothing}
      </div>`;
  }

  #set(state: WebLLMState): void {
    this.state = state;
    this.#changed();
  }
}
