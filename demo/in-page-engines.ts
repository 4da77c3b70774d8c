import { html, nothing, type TemplateResult } from 'lit';
import wasm from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import {
  chromeAIBackend,
  wllamaBackend,
  type ChatBackend,
  type ChromeAIBackend,
  type WllamaBackend,
  type WllamaBackendOptions,
} from '../src/index.js';

/** GGUF chat models small enough for a laptop's CPU, with their download size. */
export const CPU_MODELS = [
  {
    id: 'SmolLM2-135M-Instruct',
    label: 'SmolLM2 135M · 70 MB',
    detail: 'SmolLM2-135M-Instruct, Q4_K_M',
    model: {
      repo: 'bartowski/SmolLM2-135M-Instruct-GGUF',
      file: 'SmolLM2-135M-Instruct-Q4_K_M.gguf',
    },
  },
  {
    id: 'SmolLM2-360M-Instruct',
    label: 'SmolLM2 360M · 386 MB',
    detail: 'SmolLM2-360M-Instruct, Q8_0',
    model: {
      repo: 'bartowski/SmolLM2-360M-Instruct-GGUF',
      file: 'SmolLM2-360M-Instruct-Q8_0.gguf',
    },
  },
] as const;

type CpuState =
  | { phase: 'idle'; message?: string }
  | { phase: 'loading'; progress: number; controller: AbortController }
  | { phase: 'ready'; backend: WllamaBackend; model: string };

/**
 * The demo's in-page engines, beside WebLLM: llama.cpp on the CPU (`wllamaBackend`, any laptop,
 * no GPU) and Chrome's built-in model (`chromeAIBackend`, where the browser has it). Both are
 * only a `backend` for `<agent-chat>`; this holds their state and draws their panels.
 */
export class InPageEngines {
  cpu: CpuState = { phase: 'idle' };
  cpuModel: string = CPU_MODELS[0].id;
  readonly chrome: ChromeAIBackend = chromeAIBackend();
  /** What `LanguageModel.availability()` said ('absent': no Prompt API); `undefined` while asking. */
  chromeAvailability: string | undefined;
  readonly #changed: () => void;
  readonly #seed: number | undefined;

  /** `seed` fixes the CPU engine's sampling (e2e: the same answers on every run). */
  constructor(changed: () => void, options: { seed?: number } = {}) {
    this.#changed = changed;
    this.#seed = options.seed;
    void this.chrome.availability().then(
      (availability) => this.#set(() => (this.chromeAvailability = availability)),
      () => this.#set(() => (this.chromeAvailability = 'unavailable')),
    );
  }

  /** The running CPU model's backend and name, if it is loaded. */
  cpuBackend(): { backend: ChatBackend; model: string } | undefined {
    return this.cpu.phase === 'ready'
      ? { backend: this.cpu.backend, model: this.cpu.model }
      : undefined;
  }

  /** How far the CPU model's download has come (0..1) while it loads; `undefined` otherwise. */
  get cpuLoading(): number | undefined {
    return this.cpu.phase === 'loading' ? this.cpu.progress : undefined;
  }

  get chromeUsable(): boolean {
    return (
      this.chromeAvailability !== undefined &&
      this.chromeAvailability !== 'absent' &&
      this.chromeAvailability !== 'unavailable'
    );
  }

  #set(change: () => void): void {
    change();
    this.#changed();
  }

  /** Downloads (or reads from this browser's storage) and starts the chosen CPU model. */
  startCpu(): Promise<void> {
    const entry = CPU_MODELS.find((candidate) => candidate.id === this.cpuModel) ?? CPU_MODELS[0];
    return this.#start(entry.model, entry.id);
  }

  /**
   * Starts a GGUF model from a URL (kept in this browser's storage like a Hugging Face one: a
   * reload reads it with no network) or from a file the user picked (read from the disk; the
   * file itself is the copy, nothing is stored).
   */
  startCpuFrom(source: { url: string } | { file: File }): Promise<void> {
    if ('file' in source)
      return this.#start([source.file], source.file.name.replace(/\.gguf$/i, ''));
    const name = new URL(source.url, location.href).pathname.split('/').pop() ?? 'model';
    return this.#start(source.url, name.replace(/\.gguf$/i, ''));
  }

  async #start(model: WllamaBackendOptions['model'], id: string): Promise<void> {
    if (this.cpu.phase === 'loading') this.cpu.controller.abort();
    const controller = new AbortController();
    const backend = wllamaBackend({
      model,
      library: () => import('@wllama/wllama'),
      wasm,
      signal: controller.signal,
      ...(this.#seed === undefined ? {} : { loadParams: { seed: this.#seed } }),
    });
    this.#set(() => (this.cpu = { phase: 'loading', progress: 0, controller }));
    try {
      await backend.load({
        onProgress: (progress) => {
          if (this.cpu.phase === 'loading' && this.cpu.controller === controller)
            this.#set(() => (this.cpu = { phase: 'loading', progress, controller }));
        },
      });
      if (controller.signal.aborted) throw new Error('cancelled');
      this.#set(() => (this.cpu = { phase: 'ready', backend, model: id }));
    } catch (error) {
      if (this.cpu.phase === 'loading' && this.cpu.controller !== controller) return; // replaced
      const message = controller.signal.aborted
        ? 'Download cancelled.'
        : error instanceof Error
          ? error.message
          : String(error);
      this.#set(() => (this.cpu = { phase: 'idle', message }));
    }
  }

  cpuPanel(): TemplateResult {
    const state = this.cpu;
    const loading = state.phase === 'loading';
    return html`
      <div class="panel">
        <label>Model to download
          <select ?disabled=${loading} @change=${(event: Event) => this.#set(() => (this.cpuModel = (event.target as HTMLSelectElement).value))}>
            ${CPU_MODELS.map((entry) => html`<option value=${entry.id} ?selected=${entry.id === this.cpuModel}>${entry.label}</option>`)}
          </select>
        </label>
        <small class="note">${(CPU_MODELS.find((entry) => entry.id === this.cpuModel) ?? CPU_MODELS[0]).detail}, from Hugging Face.
          Runs on the CPU in a worker (llama.cpp in WebAssembly): no GPU, no server. Downloaded once, then loaded from this browser's storage with no network.</small>
        ${
          loading
            ? html`<progress max="1" value=${state.progress} aria-label="Model download"></progress>
              <small>${state.progress < 1 ? `Downloading… ${Math.round(state.progress * 100)} %` : 'Starting the engine…'}</small>
              <button type="button" @click=${() => state.controller.abort()}>Cancel</button>`
            : html`<button type="button" class="primary" @click=${() => void this.startCpu()}>
              ${state.phase === 'ready' ? 'Load again' : 'Download and start'}</button>`
        }
        <details class="own-model">
          <summary>Or your own GGUF model</summary>
          <label>A GGUF file on this computer
            <input type="file" accept=".gguf" ?disabled=${loading} @change=${(event: Event) => {
              const file = (event.target as HTMLInputElement).files?.[0];
              if (file) void this.startCpuFrom({ file });
            }} />
          </label>
          <form class="row" @submit=${(event: SubmitEvent) => {
            event.preventDefault();
            const url = new FormData(event.target as HTMLFormElement).get('gguf-url');
            if (typeof url === 'string' && url.trim() !== '')
              void this.startCpuFrom({ url: url.trim() });
          }}>
            <label class="visually-hidden" for="gguf-url">GGUF model URL</label>
            <input id="gguf-url" name="gguf-url" type="url" placeholder="https://…/model.gguf" ?disabled=${loading} />
            <button type="submit" ?disabled=${loading}>Load</button>
          </form>
          <small class="note">A chat model with its chat template, under 2 GB (or split). A URL downloads once, then loads from this browser's storage.</small>
        </details>
        ${state.phase === 'idle' && state.message ? html`<p class="problem" role="alert">${state.message}</p>` : nothing}
        ${state.phase === 'ready' ? html`<p class="ok">${state.model} is running in this page.</p>` : nothing}
      </div>`;
  }

  chromePanel(): TemplateResult {
    const availability = this.chromeAvailability;
    const text =
      availability === 'available'
        ? "Chrome's built-in model is ready on this device."
        : availability === 'downloadable' || availability === 'downloading'
          ? 'Chrome downloads its model once, for every site, on the first message (progress shows in the chat).'
          : availability === 'absent'
            ? 'This browser has no Prompt API (LanguageModel): it ships in desktop Chrome 148 and later.'
            : availability === 'unavailable'
              ? "Chrome's built-in model cannot run on this device."
              : 'Asking the browser…';
    return html`<div class="panel"><small class="note">${text}</small></div>`;
  }
}
