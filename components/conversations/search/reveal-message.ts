import type { Client, Message } from '../../../src/index.js';
import type { Entry } from '../../transcript/entry-types.js';
import type { MessageWindow } from '../../chat/message-window.js';

// Loaded when a search result opens a conversation at a message (see <agent-chat>).

/**
 * The transcript entry that shows `history[messageIndex]`: its user entry, or the assistant
 * entry after the prompt it answers (an assistant entry holds everything up to the next prompt).
 */
export function entryIndexFor(
  entries: readonly Entry[],
  history: readonly Message[],
  messageIndex: number,
): number | undefined {
  if (messageIndex < 0 || messageIndex >= history.length) return undefined;
  let prompts = 0;
  for (let index = 0; index <= messageIndex; index += 1)
    if (history[index]?.role === 'user') prompts += 1;
  if (prompts === 0) return entries.length > 0 ? 0 : undefined;
  const isPrompt = history[messageIndex]?.role === 'user';
  let seen = 0;
  for (const [index, entry] of entries.entries()) {
    if (entry.kind !== 'user' || ++seen < prompts) continue;
    return isPrompt || entries[index + 1]?.kind !== 'assistant' ? index : index + 1;
  }
  return undefined;
}

/** Scrolls `article` to the middle of the log and flashes an outline round it. */
export function revealArticle(article: Element): void {
  article.scrollIntoView({ block: 'center' });
  article.setAttribute('data-found', '');
  article.animate(
    [{ boxShadow: '0 0 0 2px var(--_accent)' }, { boxShadow: '0 0 0 2px transparent' }],
    { duration: 2400, easing: 'ease-in' },
  );
}

/** What {@link revealMessage} needs of `<agent-chat>`: re-rendered, then searched for the message's article. */
export interface RevealChat {
  renderRoot: ParentNode;
  requestUpdate(): void;
  readonly updateComplete: Promise<boolean>;
}

/**
 * Shows the stored message `messageIndex` of `session`'s conversation in `<agent-chat>`: the
 * `window` of rendered messages opened down to it, the `log` no longer following the newest,
 * the message scrolled to and outlined. Kept here, not in the element, so the chat's first load
 * does not carry it (issue 30).
 */
export async function revealMessage(
  chat: RevealChat,
  session: { readonly client: Client | undefined; readonly transcript: { entries: Entry[] } },
  window: MessageWindow,
  log: Element | null,
  messageIndex: number,
): Promise<void> {
  const history = session.client?.history;
  const entries = session.transcript.entries;
  const index = history && entryIndexFor(entries, history, messageIndex);
  if (index === undefined) return;
  window.showFrom(index);
  log?.dispatchEvent(new Event('show-more')); // stop following the newest message
  chat.requestUpdate();
  await chat.updateComplete;
  const shown = window.visible(entries).length;
  const article =
    chat.renderRoot.querySelectorAll('article.message')[index - (entries.length - shown)];
  if (article) revealArticle(article);
}
