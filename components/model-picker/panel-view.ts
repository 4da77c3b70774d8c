import { html, type TemplateResult } from 'lit';
import type { AgentOptions, checkServer, localModels } from '../../src/index.js';
import type { Translate } from '../strings/chat-strings.js';
import { AgentModelPanel } from './model-panel.js';

// Defined here, where it is used: a bare `import './model-panel.js'` is dropped by bundlers
// (the package's `sideEffects` names only the entries).
if (!customElements.get('agent-model-panel'))
  customElements.define('agent-model-panel', AgentModelPanel);

/** What the panel needs of `<agent-chat>` (read, never imported: the chat may be any copy). */
export interface PickerChat extends HTMLElement {
  baseUrl: string | undefined;
  model: string | undefined;
  options: Partial<AgentOptions> | undefined;
}

/** What the panel calls, from the picker's first load. */
export interface PickerApi {
  localModels: typeof localModels;
  checkServer: typeof checkServer;
}

/**
 * `<agent-model-panel>` as `<agent-model-picker>` shows it under the chat's header: loaded when
 * the picker first opens (no part of any first load). Picking a model calls `select`; `close`
 * hides the panel.
 */
export function panelTemplate(options: {
  chat: PickerChat;
  missing: { model: string; pull: boolean } | undefined;
  api: PickerApi;
  t: Translate;
  locale: string | undefined;
  select: (model: string) => void;
  close: () => void;
}): TemplateResult {
  const { chat, missing, api, t, locale, select, close } = options;
  return html`<agent-model-panel
    .baseUrl=${chat.baseUrl ?? ''}
    .model=${chat.model}
    .missing=${missing}
    .fetchFn=${chat.options?.fetch}
    .api=${api}
    .translateText=${t}
    .locale=${locale}
    @picker-close=${close}
    @model-select=${(event: CustomEvent<{ model: string }>) => {
      event.stopPropagation();
      select(event.detail.model);
    }}
  ></agent-model-panel>`;
}
