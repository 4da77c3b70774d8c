import { html, nothing, type TemplateResult } from 'lit';
import { menuIcon, stopIcon } from './icons.js';

/**
 * The header: the conversations button and "New chat" (when the element manages a store),
 * and the title slot.
 */
export function headerTemplate(
  state: { managed: boolean; sidebarOpen: boolean; title: string; running: boolean },
  actions: { toggleSidebar: () => void; newConversation: () => void },
): TemplateResult {
  const { managed, sidebarOpen, title, running } = state;
  return html`<header part="header">
    ${managed
      ? html`<button type="button" class="icon" part="sidebar-button" aria-controls="sidebar" aria-expanded=${sidebarOpen ? 'true' : 'false'}
          aria-label="Conversations" title="Conversations" @click=${actions.toggleSidebar}>${menuIcon}</button>`
      : nothing}
    <slot name="header"><span class="title">${title}</span></slot>
    <span class="spacer"></span>
    ${managed ? html`<button type="button" part="new-button" @click=${actions.newConversation} ?disabled=${running}>New chat</button>` : nothing}
  </header>`;
}

/** The error (with Retry) or warning banner above the composer. */
export function bannerTemplate(
  state: { error: Error | undefined; warning: string | undefined; running: boolean },
  actions: { retry: () => void; dismiss: () => void },
): TemplateResult | typeof nothing {
  const { error, warning, running } = state;
  if (error) {
    return html`<div class="banner error" role="alert" part="error">
      <div class="banner-text"><strong>${error.name === 'AgentError' ? 'The request failed' : 'Error'}</strong>${messageTemplate(error.message)}</div>
      <div class="banner-actions">
        <button type="button" class="primary" part="retry-button" ?disabled=${running} @click=${actions.retry}>Retry</button>
        <button type="button" part="dismiss-button" aria-label="Dismiss the error" @click=${actions.dismiss}>Dismiss</button>
      </div>
    </div>`;
  }
  if (warning) {
    return html`<div class="banner warning" role="status" part="warning">
      <div class="banner-text"><span>${warning}</span></div>
      <div class="banner-actions"><button type="button" part="dismiss-button" @click=${actions.dismiss}>Dismiss</button></div>
    </div>`;
  }
  return nothing;
}

/** The first line of a message, shorter than {@link SHORT}. */
const SHORT = 160;

/**
 * An error message: its first line (cut at {@link SHORT} characters), the rest under
 * "Details"; `code` in backticks shows as code.
 */
function messageTemplate(message: string): TemplateResult {
  const newline = message.indexOf('\n');
  const first = newline < 0 ? message : message.slice(0, newline);
  const short = first.length > SHORT ? `${first.slice(0, SHORT - 1)}…` : first;
  return html`<span>${codeSpans(short)}</span>${short === message
    ? nothing
    : html`<details part="error-details"><summary>Details</summary><div>${codeSpans(short === first ? message.slice(newline + 1) : message)}</div></details>`}`;
}

/** Text with its `backtick` spans as `<code>` (unbalanced backticks stay text). */
function codeSpans(text: string): unknown[] {
  const pieces = text.split('`');
  return pieces.length % 2 === 0 ? [text] : pieces.map((piece, index) => (index % 2 === 1 ? html`<code>${piece}</code>` : piece));
}

/** The message box with Send (or Stop while a run streams). */
export function composerTemplate(
  state: { draft: string; placeholder: string; running: boolean; blocked: boolean; editing: boolean; canRegenerate: boolean },
  actions: {
    input: (value: string) => void;
    keydown: (event: KeyboardEvent) => void;
    submit: (event: SubmitEvent) => void;
    stop: () => void;
    regenerate: () => void;
  },
): TemplateResult {
  const { draft, placeholder, running, blocked, editing, canRegenerate } = state;
  return html`<form class="composer" part="composer" @submit=${actions.submit}>
    <label for="input" class="visually-hidden">Message</label>
    <textarea id="input" part="input" rows="1" .value=${draft} placeholder=${placeholder} ?disabled=${blocked}
      @input=${(event: Event) => actions.input((event.target as HTMLTextAreaElement).value)}
      @keydown=${actions.keydown}></textarea>
    ${running
      ? html`<button type="button" class="stop" part="stop-button" @click=${actions.stop}>${stopIcon} Stop</button>`
      : html`${canRegenerate && draft === '' && !blocked
            ? html`<button type="button" part="regenerate-button" @click=${actions.regenerate}>Regenerate</button>`
            : nothing}<button type="submit" class="primary send" part="send-button" ?disabled=${blocked || draft.trim() === ''}>${editing ? 'Resend' : 'Send'}</button>`}
  </form>`;
}
