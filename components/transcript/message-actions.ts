import { html, nothing, type TemplateResult } from 'lit';
import type { AssistantEntry, Entry, EntryBranches, UserEntry } from './entry-types.js';

/** What the buttons under a message do: the element's session, seen through a port. */
export interface MessageActions {
  /** Puts a prompt in the composer to edit and resend it as a new version. */
  edit(entry: UserEntry): void;
  /** Copies an answer's text; `button` shows "Copied". */
  copy(entry: AssistantEntry, button: HTMLButtonElement): void;
  /** Shows version `branch` of the message at `messageIndex` (nothing while a run goes). */
  switchBranch(messageIndex: number, branch: number): void;
}

/** The row under a message: Edit or Copy, and `‹ 2 / 3 ›` when it has versions. */
export function messageActionsTemplate(entry: Entry, actions: MessageActions): TemplateResult | typeof nothing {
  if (entry.kind === 'assistant' && (entry.state === 'streaming' || !entry.parts.some((part) => part.kind === 'text'))) {
    return entry.branches ? html`<div class="message-actions" part="message-actions">${switcher(entry.branches, actions)}</div>` : nothing;
  }
  return html`<div class="message-actions" part="message-actions">
    ${entry.kind === 'user'
      ? html`<button type="button" class="link" part="edit-button" aria-label="Edit this message"
          @click=${() => actions.edit(entry)}>Edit</button>`
      : html`<button type="button" class="link" part="copy-answer-button" aria-label="Copy the answer"
          @click=${(event: Event) => actions.copy(entry, event.currentTarget as HTMLButtonElement)}>Copy</button>`}
    ${entry.branches ? switcher(entry.branches, actions) : nothing}
  </div>`;
}

function switcher(branches: EntryBranches, actions: MessageActions): TemplateResult {
  const { messageIndex, active, count } = branches;
  return html`<span class="branches" role="group" aria-label="Versions" part="branch-switcher" data-message=${messageIndex}>
    <button type="button" class="link" part="branch-previous" aria-label="Previous version" ?disabled=${active === 0}
      @click=${() => actions.switchBranch(messageIndex, active - 1)}>‹</button>
    <span part="branch-position">${active + 1} / ${count}</span>
    <button type="button" class="link" part="branch-next" aria-label="Next version" ?disabled=${active === count - 1}
      @click=${() => actions.switchBranch(messageIndex, active + 1)}>›</button>
  </span>`;
}
