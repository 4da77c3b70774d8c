import { html, type TemplateResult } from 'lit';
import type { DemoSettings } from './demo-settings.js';

/**
 * The chat header's badge naming what answers when it is not a server's model picker: the
 * scripted demo, an in-page engine and its model (`engineModel`: `undefined` while it is not
 * ready), or the server's model.
 */
export function sourceLabel(
  settings: DemoSettings,
  engineModel: string | undefined,
): TemplateResult {
  const { source, model, baseURL } = settings;
  if (source === 'demo')
    return html`<span class="badge scripted" title="Rules, not a language model">Scripted demo · not an LLM</span>`;
  if (source === 'cpu' || source === 'chrome') {
    const name = source === 'cpu' ? 'CPU' : 'Chrome built-in AI';
    return engineModel
      ? html`<span class="badge" title=${`${name} · ${engineModel}`}>${name} · ${engineModel}</span>`
      : html`<span class="badge warn">${name} · not ready</span>`;
  }
  if (source === 'webllm') {
    return engineModel !== undefined
      ? html`<span class="badge" title=${`WebLLM · ${engineModel}`}>WebLLM · ${engineModel}</span>`
      : html`<span class="badge warn">WebLLM · not loaded</span>`;
  }
  return model === ''
    ? html`<span class="badge warn">Pick a model in the settings</span>`
    : html`<span class="badge" title=${baseURL}>${model}</span>`;
}
