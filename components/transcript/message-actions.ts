import { html, nothing, type TemplateResult } from 'lit';
import type { Translate } from '../strings/chat-strings.js';
import type { AssistantEntry, Entry, EntryBranches, UserEntry } from './entry-types.js';

/** What the buttons under a message do: the element's session, seen through a port. */
export interface MessageActions {
  /** Puts a prompt in the composer to edit and resend it as a new version. */
  edit(entry: UserEntry): void;
  /** Copies an answer's text; `button` shows "Copied" (in `t`'s language). */
  copy(entry: AssistantEntry, button: HTMLButtonElement, t: Translate): void;
  /** Shows version `branch` of the message at `messageIndex` (nothing while a run goes). */
  switchBranch(messageIndex: number, branch: number): void;
}

/** The row under a message: Edit or Copy, and `‹ 2 / 3 ›` when it has versions. */
export function messageActionsTemplate(
  entry: Entry,
  actions: MessageActions,
  t: Translate,
): TemplateResult | typeof nothing {
  if (
    entry.kind === 'assistant' &&
    (entry.state === 'streaming' || !entry.parts.some((part) => part.kind === 'text'))
  ) {
    return entry.branches
      ? html`<div class="message-actions" part="message-actions">${switcher(entry.branches, actions, t)}</div>`
      : nothing;
  }
  return html`<div class="message-actions" part="message-actions">
    ${
      entry.kind === 'user'
        ? html`<button type="button" class="link" part="edit-button" aria-label=${t('Edit this message')}
          @click=${() => actions.edit(entry)}>${t('Edit')}</button>`
        : html`<button type="button" class="link" part="copy-answer-button" aria-label=${t('Copy the answer')}
          @click=${(event: Event) => actions.copy(entry, event.currentTarget as HTMLButtonElement, t)}>${t('Copy')}</button>`
    }
    ${entry.branches ? switcher(entry.branches, actions, t) : nothing}
  </div>`;
}

function switcher(branches: EntryBranches, actions: MessageActions, t: Translate): TemplateResult {
  const { messageIndex, active, count } = branches;
  return html`<span class="branches" role="group" aria-label=${t('Versions')} part="branch-switcher" data-message=${messageIndex}>
    <button type="button" class="link" part="branch-previous" aria-label=${t('Previous version')} ?disabled=${active === 0}
      @click=${() => actions.switchBranch(messageIndex, active - 1)}>‹</button>
    <span part="branch-position">${t('{active} / {count}', { active: active + 1, count })}</span>
    <button type="button" class="link" part="branch-next" aria-label=${t('Next version')} ?disabled=${active === count - 1}
      @click=${() => actions.switchBranch(messageIndex, active + 1)}>›</button>
  </span>`;
}
