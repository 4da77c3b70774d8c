import { html, nothing, type TemplateResult } from 'lit';
import { formatDuration } from './elapsed-time.js';
import type { ChatStrings, Translate } from '../strings/chat-strings.js';

export { AgentElapsed } from './elapsed-time.js';
export { cardTemplate } from './card-templates.js';
import type { ToolInputPart, ToolPart, ToolStatus } from '../transcript/entry-types.js';
import { jsonText, resultText } from './json-text.js';

/** Results longer than this are cut, with a button to show them whole (appended in slices). */
const RESULT_PREVIEW = 2_000;

/** What a tool card's buttons do. */
export interface ToolCardActions {
  approve(part: ToolPart): void;
  deny(part: ToolPart): void;
  /** Runs a waiting call with its tool's `execute` (automatic runs are off). */
  run(part: ToolPart): void;
  /** Answers a waiting call with a denial instead of a result. */
  skip(part: ToolPart): void;
  edit(part: ToolPart): void;
  cancelEdit(part: ToolPart): void;
  draft(part: ToolPart, value: string): void;
  expand(part: ToolPart): void;
}

const LABELS: Record<
  ToolStatus,
  | 'Running'
  | 'Done'
  | 'Error'
  | 'Denied'
  | 'Cancelled'
  | 'Waiting for approval'
  | 'Waiting for the page'
> = {
  running: 'Running',
  done: 'Done',
  error: 'Error',
  denied: 'Denied',
  cancelled: 'Cancelled',
  approval: 'Waiting for approval',
  external: 'Waiting for the page',
};

/** A tool call: name, status, arguments, then its result or the approval controls. */
export function toolCard(part: ToolPart, actions: ToolCardActions, t: Translate): TemplateResult {
  const argumentsText = jsonText(part.input, true);
  const label = t(part.runnable ? 'Waiting for Run' : LABELS[part.status]);
  return html`
    <section class="tool ${part.status}" part="tool-card tool-${part.status}" aria-label=${t('Tool call {name}: {status}', { name: part.name, status: label })}>
      <header class="tool-head">
        <span class="tool-icon" aria-hidden="true">${icon(part.status)}</span>
        <code class="tool-name" part="tool-name">${part.name}</code>
        <span class="tool-status" part="tool-status">
          ${label}
          ${
            part.status === 'running'
              ? html`<agent-elapsed since=${String(part.startedAt)}></agent-elapsed>`
              : part.elapsedMs !== undefined && part.status === 'done'
                ? html`<span class="muted">${formatDuration(part.elapsedMs, locale())}</span>`
                : nothing
          }
        </span>
      </header>
      ${
        part.draft === undefined
          ? argumentsText === '{}'
            ? nothing
            : html`<pre class="tool-args" part="tool-arguments" role="group" aria-label=${t('Arguments')}>${argumentsText}</pre>`
          : editor(part, actions, t)
      }
      ${outcome(part, actions, t)}
      ${part.status === 'approval' && part.draft === undefined ? approvalButtons(part, actions, t) : nothing}
      ${part.status === 'external' ? waiting(part, actions, t) : nothing}
    </section>
  `;
}

/**
 * A call still being written by the model: its name and its arguments text as it grows
 * (the view patches that text per frame; this template renders once per name change).
 */
export function toolInputCard(part: ToolInputPart, t: Translate): TemplateResult {
  const name = part.name ?? 'tool';
  return html`
    <section class="tool receiving" part="tool-card tool-receiving" aria-label=${t('Tool call {name}: {status}', { name, status: t('Receiving arguments…') })}>
      <header class="tool-head">
        <span class="tool-icon" aria-hidden="true">⟳</span>
        <code class="tool-name" part="tool-name">${name}</code>
        <span class="tool-status" part="tool-status">${t('Receiving arguments…')}</span>
      </header>
      ${labelled(part.view.element, t('Arguments'))}
    </section>
  `;
}

function outcome(
  part: ToolPart,
  actions: ToolCardActions,
  t: Translate,
): TemplateResult | typeof nothing {
  if (part.status === 'done' || (part.status === 'error' && part.result !== undefined)) {
    const text = resultText(part.result);
    const long = text.length > RESULT_PREVIEW;
    const whole = long && part.expanded === true ? part.wholeResult : undefined;
    return html`
      <details class="tool-result" part="tool-result" ?open=${text.length < 400}>
        <summary>${t('Result')} <span class="muted">(${t('{n} characters', { n: text.length })})</span></summary>
        <pre>${whole ?? (long ? `${text.slice(0, RESULT_PREVIEW)}…` : text)}</pre>
        ${
          long
            ? html`<button type="button" class="link" part="show-more-button" aria-expanded=${whole ? 'true' : 'false'}
              @click=${() => actions.expand(part)}>
              ${whole ? t('Show less') : t('Show more ({n} more characters)', { n: text.length - RESULT_PREVIEW })}
            </button>`
            : nothing
        }
      </details>
    `;
  }
  if (
    part.error !== undefined &&
    (part.status === 'error' || part.status === 'denied' || part.status === 'cancelled')
  ) {
    // The element's own texts ("Stopped", "Interrupted", …) are keys of the strings table; any
    // other error (a tool's, the runtime's) is no key and comes back from `t` as it is.
    return html`<pre class="tool-error" part="tool-error">${t(part.error as keyof ChatStrings)}</pre>`;
  }
  return nothing;
}

function approvalButtons(part: ToolPart, actions: ToolCardActions, t: Translate): TemplateResult {
  return html`
    <div class="tool-actions" role="group" aria-label=${t('Approve {name}?', { name: part.name })}>
      <button type="button" class="primary" part="approve-button" @click=${() => actions.approve(part)}>${t('Approve')}</button>
      <button type="button" part="edit-button" @click=${() => actions.edit(part)}>${t('Edit arguments')}</button>
      <button type="button" class="danger" part="deny-button" @click=${() => actions.deny(part)}>${t('Deny')}</button>
    </div>
  `;
}

/** A call waiting for its result: Run / Skip, or what the page is doing about it. */
function waiting(part: ToolPart, actions: ToolCardActions, t: Translate): TemplateResult {
  const note = part.runnable
    ? 'Tools do not run automatically here: run this call?'
    : part.handled
      ? 'The page is running this tool; its result will appear here.'
      : 'Nothing on this page answers this tool (it has no execute and no agent-tool-call listener took it).';
  return html`
    <p class="tool-note" part="tool-note">${t(note)}</p>
    <div class="tool-actions" role="group" aria-label=${t('Run {name}?', { name: part.name })}>
      ${part.runnable ? html`<button type="button" class="primary" part="run-button" @click=${() => actions.run(part)}>${t('Run')}</button>` : nothing}
      <button type="button" part="skip-button" @click=${() => actions.skip(part)}>${t('Skip')}</button>
    </div>
  `;
}

function editor(part: ToolPart, actions: ToolCardActions, t: Translate): TemplateResult {
  const id = `draft-${part.id}`;
  return html`
    <label class="tool-edit-label" for=${id}>${t('Arguments (JSON)')}</label>
    <textarea
      id=${id}
      class="tool-edit"
      part="tool-arguments-editor"
      spellcheck="false"
      .value=${part.draft ?? ''}
      aria-invalid=${part.draftError === undefined ? 'false' : 'true'}
      @input=${(event: Event) => actions.draft(part, (event.target as HTMLTextAreaElement).value)}
    ></textarea>
    ${part.draftError === undefined ? nothing : html`<p class="tool-error" role="alert">${part.draftError}</p>`}
    <div class="tool-actions">
      <button type="button" class="primary" part="approve-button" @click=${() => actions.approve(part)}>${t('Approve with these arguments')}</button>
      <button type="button" part="cancel-edit-button" @click=${() => actions.cancelEdit(part)}>${t('Cancel edit')}</button>
      <button type="button" class="danger" part="deny-button" @click=${() => actions.deny(part)}>${t('Deny')}</button>
    </div>
  `;
}

/** The page's language, for numbers (the cards render inside the chat's shadow root). */
function locale(): string | undefined {
  return document.documentElement.lang || undefined;
}

function icon(status: ToolStatus): string {
  switch (status) {
    case 'running':
      return '⟳';
    case 'done':
      return '✓';
    case 'error':
      return '✕';
    case 'denied':
      return '⊘';
    case 'cancelled':
      return '■';
    case 'approval':
      return '?';
    case 'external':
      return '…';
  }
}

/** `element` named `label` (a streaming arguments view: created before the element's language was known). */
function labelled(element: HTMLElement, label: string): HTMLElement {
  element.setAttribute('aria-label', label);
  return element;
}
