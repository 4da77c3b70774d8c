import type { Message } from '../types/message.js';

/** Template framing per message (role markers, separators): a few tokens on every server. */
const MESSAGE_OVERHEAD = 4;
/** Tool results longer than this (tokens) may be shortened when nothing else is left to drop. */
const KEPT_RESULT_CHARS = 2_000;

/**
 * What one image costs, whatever its size: vision encoders cut images to a fixed grid
 * (LLaVA 576 tokens, Gemma 3 256, Qwen2.5-VL up to ~1,000 at its default resolution). Its
 * base64 length says nothing about it.
 */
export const IMAGE_TOKENS = 768;

const messageTokens = new WeakMap<Message, number>();

/**
 * A message's token estimate: ~4 characters a token plus the template's framing. Cached
 * per message object — stored messages never change, so a 10,000-message conversation is
 * counted once and re-fitted from the cache on every call.
 */
export function estimateMessageTokens(message: Message): number {
  let tokens = messageTokens.get(message);
  if (tokens !== undefined) return tokens;
  const content = message.content;
  let chars = 0;
  let images = 0;
  if (typeof content === 'string') chars = content.length;
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part.type === 'text') chars += part.text.length;
      else images += 1;
    }
  }
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? [])
      chars += 8 + call.function.name.length + call.function.arguments.length;
  }
  tokens = MESSAGE_OVERHEAD + Math.ceil(chars / 4) + images * IMAGE_TOKENS;
  messageTokens.set(message, tokens);
  return tokens;
}

/** What {@link fitMessages} needs. Token figures are already calibrated by `scale`. */
export interface FitInput {
  /** The conversation as it would be sent, without the system prompt. */
  messages: readonly Message[];
  /** Tokens that are always sent: the system prompt and the tool definitions. */
  fixedTokens: number;
  /** Tokens the prompt may take (the window less the room kept for the answer). */
  budget: number;
  /** Reported ÷ estimated tokens, learned from responses (1 before any). */
  scale: number;
  /** The sum of {@link estimateMessageTokens} over `messages`, when the caller kept it. */
  messageTokens?: number;
}

/** What {@link fitMessages} decided. */
export interface FitResult {
  /** What to send: `messages` itself (not a copy) when all of it fits. */
  messages: readonly Message[];
  /** Stored messages left out (shortened tool results count as kept). */
  droppedMessages: number;
  /** The calibrated estimate of the whole prompt as sent. */
  promptTokens: number;
  /** Whether it fits `budget`. */
  fits: boolean;
}

/**
 * Leaves out the oldest turns (a user message and everything up to the next one) until the
 * prompt fits: never the current turn — the last user message with the tool exchange after
 * it — so a call is never sent without its results, nor a result without its call. When the
 * current turn alone is too long, its longest tool results are shortened (head and tail
 * kept, with a note). Never changes a message: shortened results are new objects.
 */
export function fitMessages({
  messages,
  fixedTokens,
  budget,
  scale,
  messageTokens,
}: FitInput): FitResult {
  const count = (tokens: number): number => Math.ceil(tokens * scale);
  let total = fixedTokens;
  if (messageTokens !== undefined) total += messageTokens;
  else for (const message of messages) total += estimateMessageTokens(message);
  if (count(total) <= budget) {
    return { messages, droppedMessages: 0, promptTokens: count(total), fits: true };
  }
  let current = messages.length;
  while (current > 0 && messages[current - 1]?.role !== 'user') current -= 1;
  current = Math.max(0, current - 1);
  // Drop whole turns from the front: the kept part always starts at a user message.
  let start = 0;
  while (count(total) > budget && start < current) {
    let next = start + 1;
    while (next < current && messages[next]?.role !== 'user') next += 1;
    for (let index = start; index < next; index += 1)
      total -= estimateMessageTokens(messages[index] as Message);
    start = next;
  }
  const kept = messages.slice(start);
  if (count(total) > budget) total = shortenToolResults(kept, total, count, budget);
  return {
    messages: kept,
    droppedMessages: start,
    promptTokens: count(total),
    fits: count(total) <= budget,
  };
}

/** Cuts the longest tool results (head and tail kept) until the prompt fits; returns the new total. */
function shortenToolResults(
  kept: Message[],
  total: number,
  count: (tokens: number) => number,
  budget: number,
): number {
  const results = kept
    .flatMap((message, index) =>
      message.role === 'tool' &&
      typeof message.content === 'string' &&
      message.content.length > KEPT_RESULT_CHARS
        ? [{ message, content: message.content, index }]
        : [],
    )
    .sort((a, b) => b.content.length - a.content.length);
  for (const { message, content, index } of results) {
    if (count(total) <= budget) break;
    const half = KEPT_RESULT_CHARS / 2;
    const cut = content.length - KEPT_RESULT_CHARS;
    const shortened: Message = {
      ...message,
      content: `${content.slice(0, half)}\n[… ${cut} characters of this tool result were left out to fit the context window …]\n${content.slice(-half)}`,
    };
    total += estimateMessageTokens(shortened) - estimateMessageTokens(message);
    kept[index] = shortened;
  }
  return total;
}
