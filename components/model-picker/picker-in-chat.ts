import { html, type TemplateResult } from 'lit';
import type { AgentOptions, checkServer, localModels } from '../../src/index.js';
import type { Translate } from '../strings/chat-strings.js';
import { AgentModelPicker } from './model-picker.js';

// Defined here, where it is used: a bare `import './model-picker.js'` is dropped by bundlers
// (the package's `sideEffects` names only the entries).
if (!customElements.get('agent-model-picker'))
  customElements.define('agent-model-picker', AgentModelPicker);

/** What the picker needs of `<agent-chat>` (the element itself). */
export interface PickerHost extends HTMLElement {
  baseUrl: string | undefined;
  model: string | undefined;
  options: Partial<AgentOptions> | undefined;
}

/** What the picker calls, from the chat's first load. */
export interface PickerApi {
  localModels: typeof localModels;
  checkServer: typeof checkServer;
}

/**
 * `<agent-model-picker>` as `<agent-chat>` shows it under its header: loaded with the picker
 * (not in the chat's first load). Picking a model sets the chat's `model` (a new Client on the
 * same conversation) and fires `model-change` on the chat; `close` hides the picker.
 */
export function pickerTemplate(options: {
  host: PickerHost;
  pull: string | undefined;
  api: PickerApi;
  t: Translate;
  locale: string | undefined;
  close: () => void;
}): TemplateResult {
  const { host, pull, api, t, locale, close } = options;
  return html`<agent-model-picker
    .baseUrl=${host.baseUrl ?? ''}
    .model=${host.model}
    .pullName=${pull}
    .fetchFn=${host.options?.fetch}
    .api=${api}
    .translateText=${t}
    .locale=${locale}
    @picker-close=${close}
    @model-select=${(event: CustomEvent<{ model: string }>) => {
      event.stopPropagation();
      close();
      host.model = event.detail.model;
      host.dispatchEvent(
        new CustomEvent('model-change', {
          detail: { model: event.detail.model },
          bubbles: true,
          composed: true,
        }),
      );
    }}
  ></agent-model-picker>`;
}
