import { html, nothing, type TemplateResult } from 'lit';
import { menuIcon, stopIcon } from './icons.js';
import type { ChatStrings, Translate } from '../strings/chat-strings.js';
import type { Message } from '../../src/index.js';

/** How much of the model's context window the last request took (prompt tokens), and the window. */
export interface ContextUse {
  used: number;
  window: number;
}

/**
 * The header: the conversations button and "New chat" (when the element manages a store),
 * the title slot, and once a request was made the context meter (`1.2K / 8K tokens`).
 */
export function headerTemplate(
  state: {
    managed: boolean;
    sidebarOpen: boolean;
    title: string;
    running: boolean;
    context: ContextUse | undefined;
    locale: string | undefined;
  },
  actions: { toggleSidebar: () => void; newConversation: () => void },
  t: Translate,
): TemplateResult {
  const { managed, sidebarOpen, title, running, context } = state;
  return html`<header part="header">
    ${
      managed
        ? html`<button type="button" class="icon" part="sidebar-button" aria-controls="sidebar" aria-expanded=${sidebarOpen ? 'true' : 'false'}
          aria-label=${t('Conversations')} title=${t('Conversations')} @click=${actions.toggleSidebar}>${menuIcon}</button>`
        : nothing
    }
    <slot name="header"><span class="title">${title}</span></slot>
    <span class="spacer"></span>
    ${context ? meterTemplate(context, state.locale, t) : nothing}
    ${managed ? html`<button type="button" part="new-button" @click=${actions.newConversation} ?disabled=${running}>${t('New chat')}</button>` : nothing}
  </header>`;
}

/**
 * The context meter: a native `<meter>` (its role and values reach assistive technology;
 * past `low` it turns the warning colour, past `high` the danger one) and its figures.
 */
function meterTemplate(
  { used, window }: ContextUse,
  locale: string | undefined,
  t: Translate,
): TemplateResult {
  const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  const text = t('{used} / {window} tokens', {
    used: compact.format(used),
    window: compact.format(window),
  });
  return html`<span class="context" part="context-meter" title=${t('Context window used by the last request')}>
    <meter min="0" max=${window} value=${Math.min(used, window)} low=${window * 0.75} high=${window * 0.9} optimum="0" aria-label=${t('Context window used by the last request')} aria-valuetext=${text}></meter>${text}</span>`;
}

/** The error (with Retry) or warning banner above the composer. */
export function bannerTemplate(
  state: {
    error: Error | undefined;
    warning: string | undefined;
    running: boolean;
  },
  actions: { retry: () => void; dismiss: () => void },
  t: Translate,
): TemplateResult | typeof nothing {
  const { error, warning, running } = state;
  if (error) {
    // The element's own messages are keys of the strings table; a server's is none: `t` gives it back.
    return html`<div class="banner error" role="alert" part="error">
      <div class="banner-text"><strong>${t(error.name === 'AgentError' ? 'The request failed' : 'Error')}</strong>${messageTemplate(t(error.message as keyof ChatStrings), t)}</div>
      <div class="banner-actions">
        <button type="button" class="primary" part="retry-button" ?disabled=${running} @click=${actions.retry}>${t('Retry')}</button>
        <button type="button" part="dismiss-button" aria-label=${t('Dismiss the error')} @click=${actions.dismiss}>${t('Dismiss')}</button>
      </div>
    </div>`;
  }
  if (warning) {
    return html`<div class="banner warning" role="status" part="warning">
      <div class="banner-text"><span>${warning}</span></div>
      <div class="banner-actions"><button type="button" part="dismiss-button" @click=${actions.dismiss}>${t('Dismiss')}</button></div>
    </div>`;
  }
  return nothing;
}

/** The first line of a message, shorter than {@link SHORT}. */
const SHORT = 160;
/**
 * The lines after the first say how to fix it (a CORS fix for every server is about 900
 * characters): shown as they are up to this size, else their first line stays in view and the
 * rest folds under "Details". A blank line ends the fix: what follows it is further help, and
 * folds.
 */
const FIX = 1000;

/**
 * An error message: its first line (cut at {@link SHORT} characters), then the lines after
 * it — the fix open-agent adds (the Local Network Access permission, the CORS setting with the
 * page's origin, the server flag) — in view when short, else its first line in view and the
 * rest under "Details"; `code` in backticks shows as code.
 */
function messageTemplate(message: string, t: Translate): TemplateResult {
  const newline = message.indexOf('\n');
  const first = newline < 0 ? message : message.slice(0, newline);
  const short = first.length > SHORT ? `${first.slice(0, SHORT - 1)}…` : first;
  const rest = short === first && newline >= 0 ? message.slice(newline + 1).trim() : '';
  let lead = rest.split('\n\n')[0] ?? '';
  if (lead.length > FIX) lead = lead.split('\n')[0] ?? '';
  const more = short === first ? rest.slice(lead.length).trim() : message;
  return html`<span>${codeSpans(short)}</span>${
    lead ? html`<div class="error-fix" part="error-fix">${codeSpans(lead)}</div>` : nothing
  }${
    more
      ? html`<details part="error-details"><summary>${t('Details')}</summary><div>${codeSpans(more)}</div></details>`
      : nothing
  }`;
}

/** Text with its `backtick` spans as `<code>` (unbalanced backticks stay text). */
function codeSpans(text: string): unknown[] {
  const pieces = text.split('`');
  return pieces.length % 2 === 0
    ? [text]
    : pieces.map((piece, index) => (index % 2 === 1 ? html`<code>${piece}</code>` : piece));
}

/**
 * The message box with Send (or Stop while a run streams), the attach button, and the
 * images going with the message as thumbnails. Images can also be pasted or dropped anywhere
 * on the form.
 */
export function composerTemplate(
  state: {
    draft: string;
    placeholder: string;
    running: boolean;
    blocked: boolean;
    editing: boolean;
    canRegenerate: boolean;
    images: readonly string[];
    /** The thumbnails of `images` (rendered by the image module, loaded with the first image). */
    attachments: unknown;
  },
  actions: {
    input: (value: string) => void;
    keydown: (event: KeyboardEvent) => void;
    submit: (event: SubmitEvent) => void;
    stop: () => void;
    regenerate: () => void;
    take: (event: Event) => void;
  },
  t: Translate,
): TemplateResult {
  const { draft, placeholder, running, blocked, editing, canRegenerate, images, attachments } =
    state;
  return html`<form class="composer" part="composer" @submit=${actions.submit} @dragover=${(event: Event) => event.preventDefault()} @drop=${actions.take} @paste=${actions.take}>
    ${attachments}
    <label class="attach" part="attach-button" title=${t('Attach images')}>+<input type="file" accept="image/*" multiple class="visually-hidden"
      aria-label=${t('Attach images')} ?disabled=${blocked} @change=${actions.take}></label>
    <label for="input" class="visually-hidden">${t('Message')}</label>
    <textarea id="input" part="input" rows="1" .value=${draft} placeholder=${placeholder} ?disabled=${blocked}
      @input=${(event: Event) => actions.input((event.target as HTMLTextAreaElement).value)}
      @keydown=${actions.keydown}></textarea>
    ${
      running
        ? html`<button type="button" class="stop" part="stop-button" @click=${actions.stop}>${stopIcon} ${t('Stop')}</button>`
        : html`${
            canRegenerate && draft === '' && !blocked
              ? html`<button type="button" part="regenerate-button" @click=${actions.regenerate}>${t('Regenerate')}</button>`
              : nothing
          }<button type="submit" class="primary send" part="send-button" ?disabled=${blocked || (draft.trim() === '' && images.length === 0)}>${t(editing ? 'Resend' : 'Send')}</button>`
    }
  </form>`;
}

/** The context use stored with the last answer that has one: the last request's figures, for the meter after a reload. */
export function storedContextUse(history: readonly Message[]): ContextUse | undefined {
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const message = history[index];
    if (message?.role === 'assistant' && message.contextUse)
      return { used: message.contextUse.promptTokens, window: message.contextUse.contextWindow };
  }
  return undefined;
}
