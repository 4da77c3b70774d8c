import type { Message } from '../types/message.js';

/**
 * Most messages in one stored page. Chromium reads 10,000 messages as one record each in about
 * 80 ms, as pages of 32 in about 25 ms (per-record cost dominates); an append rewrites at most
 * one page, so its cost stays bounded whatever the conversation's length.
 */
export const PAGE_MESSAGES = 32;

/** A page holding this many characters of text takes no more messages (long tool outputs). */
export const PAGE_CHARACTERS = 64 * 1024;

/** About how much text a message stores: what decides when a page is full. */
export function messageSize(message: Message): number {
  let size = message.content?.length ?? 0;
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      size += call.id.length + call.function.name.length + call.function.arguments.length;
    }
  }
  return size;
}

/**
 * Splits `messages` into pages, continuing `last` (the conversation's last stored page, or
 * `[]`). Returns the pages in order: the first is `last` with what fitted added (unchanged when
 * it was full), the others are new. Never returns an empty page other than an empty `last`.
 */
export function fillPages(last: readonly Message[], messages: readonly Message[]): Message[][] {
  const pages: Message[][] = [[...last]];
  let page = pages[0] as Message[]; // just created
  let size = last.reduce((total, message) => total + messageSize(message), 0);
  for (const message of messages) {
    const added = messageSize(message);
    if (page.length >= PAGE_MESSAGES || (page.length > 0 && size + added > PAGE_CHARACTERS)) {
      page = [];
      pages.push(page);
      size = 0;
    }
    page.push(message);
    size += added;
  }
  return pages;
}
