import { copyText } from '../markdown/copy-code.js';
import { markBranches, userMessageIndex } from '../transcript/branch-marks.js';
import type { ChatSession } from './chat-session.js';
import type { ComposerInput } from './composer-input.js';
import type { MessageActions } from '../transcript/message-actions.js';
import type { MessageWindow } from './message-window.js';
import type { RevealChat } from '../conversations/search/reveal-message.js';

/** The row's actions, and showing a search result's message (issue 30). */
export interface RowActions extends MessageActions {
  /**
   * Shows the stored message `messageIndex` of the loaded conversation: its code
   * (conversations/search/reveal-message.ts) loads then, triggered from this chunk, so the
   * chat's first load carries none of it.
   */
  reveal(messageIndex: number): void;
}

// The row under each message (Edit, Copy, `‹ 2 / 3 ›`) loads after the first paint, as its
// own chunk (message-row-loader.ts): an empty chat shows without it.
export { messageActionsTemplate } from '../transcript/message-actions.js';

/** The row's look, added to the element's styles when the row loads. */
const styles = new CSSStyleSheet();
styles.replaceSync(`
  .message.user { flex-wrap: wrap; }
  .message-actions { display: flex; align-items: center; gap: 6px; font-size: 0.82em; color: var(--_muted); }
  .message.user .message-actions { flex-basis: 100%; justify-content: flex-end; margin-top: 2px; }
  .message-actions button { padding: 2px 6px; }
  .message-actions button:disabled { opacity: 0.4; }
  .branches { display: inline-flex; align-items: center; gap: 2px; font-variant-numeric: tabular-nums; }
`);

/**
 * Marks the session's messages that have versions (`‹ 2 / 3 ›`), between runs, and places the
 * "Summarised N earlier messages" dividers, their code loaded when the conversation has
 * summaries — between runs, or (`live`) during one, on its `context_compacted` — then calls
 * `changed` (here, not in the session: the chat page's first load has none of it).
 */
export function markSession(session: ChatSession, changed: () => void, live = false): void {
  const client = session.client;
  if (!client) return;
  if (!live)
    markBranches(session.transcript.entries, client.history, (index) => client.branchesAt(index));
  if (client.summaries.length === 0) return;
  import('../summary/summary-dividers.js')
    .then((dividers) =>
      dividers.placeDividers(client, () =>
        session.client !== client || (session.running && !live)
          ? false
          : session.transcript.entries,
      ),
    )
    .then(
      (placed) => placed && changed(),
      () => undefined,
    );
}

/** The row's actions for an element: edit a prompt, copy an answer, switch versions; and reveal a search result's message in `window`. */
export function messageActions(
  element: RevealChat & { renderRoot: HTMLElement | DocumentFragment },
  session: ChatSession,
  input: ComposerInput,
  window: MessageWindow,
): RowActions {
  const root = element.renderRoot as ShadowRoot;
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, styles];
  return {
    edit: (entry) => {
      const history = session.client?.history ?? [];
      const index = userMessageIndex(session.transcript.entries, entry, history);
      const message = history[index];
      if (message?.role !== 'user' || session.running) return;
      // Its text and its images: resent edited, the images go again unless removed.
      input.edit(index, message.content);
      void element.updateComplete.then(() =>
        root.querySelector<HTMLTextAreaElement>('#input')?.focus(),
      );
    },
    copy: (entry, button, t) => {
      const text = entry.parts.flatMap((part) => (part.kind === 'text' ? [part.view.text] : []));
      copyText(button, text.join('\n\n'), t);
    },
    reveal: (messageIndex) =>
      void import('../conversations/search/reveal-message.js').then((reveal) =>
        reveal.revealMessage(
          element,
          session,
          window,
          root.querySelector<HTMLElement>('.log'),
          messageIndex,
        ),
      ),
    switchBranch: (messageIndex, branch) => {
      const used = root.activeElement?.getAttribute('part');
      void session.switchBranch(messageIndex, branch).then(async (switched) => {
        if (!switched) return;
        // The row was drawn anew: the keyboard stays on the switcher that was used.
        await element.updateComplete;
        const buttons = [
          ...root.querySelectorAll<HTMLButtonElement>(`[data-message="${messageIndex}"] button`),
        ];
        const enabled = buttons.filter((button) => !button.disabled);
        (enabled.find((button) => button.getAttribute('part') === used) ?? enabled[0])?.focus();
      });
    },
  };
}
