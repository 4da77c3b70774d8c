import { html, nothing, type TemplateResult } from 'lit';
import type { DiscoveredEndpoint } from '../src/index.js';
import type { DemoSettings, ModelSource } from './demo-settings.js';

const SUGGESTIONS = [
  'What is 12 * (3 + 4)?',
  'Run `[1, 2, 3, 4].map((x) => x * x)`',
  'Remember that the demo works offline',
  'What time is it?',
  'What can you do?',
];

const STATUS_LABELS: Record<DiscoveredEndpoint['status'], string> = {
  ready: 'Ready',
  'no-models': 'No model',
  cors: 'Blocked (CORS)',
  unreachable: 'Not running',
  error: 'Error',
};

/**
 * The chat's empty state: suggestions when a model is ready, else what is missing and the
 * one click that gets there (chips that could do nothing are not shown).
 */
export function welcomeTemplate(
  state: { source: ModelSource; ready: boolean; loading?: number | undefined },
  actions: { send: (text: string) => void; nextStep: () => void },
): TemplateResult {
  const { source, ready, loading } = state;
  return html`<div slot="empty" class="welcome">
    <h2>What can I help with?</h2>
    <p>${
      source === 'demo'
        ? 'You are talking to the built-in scripted demo model — rules, not an LLM. It works offline and shows tools, approvals and streaming.'
        : 'Ask anything. The model can use the tools enabled in the settings.'
    }</p>
    ${
      ready
        ? html`<div class="suggestions">
          ${SUGGESTIONS.map((text) => html`<button type="button" @click=${() => actions.send(text)}>${text}</button>`)}
        </div>`
        : loading !== undefined
          ? // The settings (and their progress bar) are out of sight on a phone: the chat says it too.
            html`<p class="next-step" role="status">${loading < 1 ? `Downloading the model… ${Math.round(loading * 100)} %` : 'Starting the engine…'}</p>`
          : html`<p class="next-step">${source === 'server' ? 'No model is chosen yet.' : 'The in-browser model is not running yet.'}</p>
          <button type="button" class="primary" @click=${actions.nextStep}>
            ${source === 'server' ? 'Find local servers and their models' : 'Use the built-in demo model instead'}
          </button>`
    }
  </div>`;
}

/** A discovered server: its status, why, the fix to apply, and its models to choose from. */
export function endpointTemplate(
  endpoint: DiscoveredEndpoint,
  settings: DemoSettings,
  choose: (model: string) => void,
): TemplateResult {
  return html`<li class="endpoint ${endpoint.status}">
    <div class="endpoint-head"><strong>${endpoint.name}</strong><span class="status">${STATUS_LABELS[endpoint.status]}</span></div>
    <small>${endpoint.message}</small>
    ${endpoint.fix ? html`<pre class="fix">${endpoint.fix}</pre>` : nothing}
    ${
      endpoint.models.length > 0
        ? html`<div class="models">${endpoint.models.map(
            (
              id,
            ) => html`<button type="button" class=${id === settings.model && endpoint.baseURL === settings.baseURL ? 'selected' : ''}
          @click=${() => choose(id)}>${id}</button>`,
          )}</div>`
        : nothing
    }
  </li>`;
}
