import { AgentError } from '../errors/agent-error.js';
import type { Message } from '../types/message.js';
import type { StoreKit } from './store-kit.js';

/** Longest automatic title, in characters (an ellipsis marks a cut). */
export const TITLE_LENGTH = 60;

/**
 * A conversation title from its first user message: whitespace collapsed, cut at a word
 * boundary near {@link TITLE_LENGTH} characters with an ellipsis. `undefined` when there is no
 * user message with text. (`contentText` is handed over: see {@link StoreKit}.)
 */
export function titleFromMessages(
  messages: readonly Message[],
  { contentText }: Pick<StoreKit, 'contentText'>,
): string | undefined {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const text = contentText(message.content).replace(/\s+/g, ' ').trim();
    if (text) return shorten(text);
  }
  return undefined;
}

function shorten(text: string): string {
  // Count code points, not UTF-16 units, so an emoji is never cut in half.
  const characters = Array.from(text);
  if (characters.length <= TITLE_LENGTH) return text;
  const cut = characters.slice(0, TITLE_LENGTH - 1).join('');
  const endsAtWord = characters[TITLE_LENGTH - 1] === ' ';
  const space = cut.lastIndexOf(' ');
  const head = endsAtWord || space < TITLE_LENGTH / 2 ? cut : cut.slice(0, space);
  return `${head.trimEnd()}…`;
}

/**
 * A title given by `rename`: whitespace collapsed and trimmed.
 *
 * @throws AgentError `VALIDATION_FAILED` for an empty title.
 */
export function checkedTitle(title: string): string {
  const trimmed = title.replace(/\s+/g, ' ').trim();
  if (!trimmed) throw new AgentError('VALIDATION_FAILED', 'A conversation title cannot be empty.');
  return trimmed;
}
