import type { ContextSummary } from '../../types/context-summary.js';
import type { Message } from '../../types/message.js';

/** Each message's own hash: stored messages never change, so it is computed once. */
const messageHashes = new WeakMap<Message, number>();

/**
 * A hash of `messages[0 .. count)`: their roles, text, tool calls and call ids — not display
 * fields (reasoning, durations) nor key order, so a conversation read back from storage or a
 * file gives the same fingerprint. Cost after the first call: one multiply per message.
 *
 * @example
 * const summary = { text, covers: 12, fingerprint: summaryFingerprint(messages, 12), createdAt: Date.now() };
 */
export function summaryFingerprint(messages: readonly Message[], count: number): string {
  let hash = 0x811c9dc5;
  let second = count;
  for (let index = 0; index < count && index < messages.length; index += 1) {
    const own = hashOf(messages[index] as Message);
    hash = Math.imul(hash ^ own, 0x01000193) >>> 0;
    second = Math.imul(second + own, 0x5bd1e995) >>> 0;
  }
  return `${count.toString(36)}-${hash.toString(36)}-${second.toString(36)}`;
}

/**
 * The summaries that apply to `messages` (the branch shown), oldest first: those whose
 * fingerprint matches the messages they cover.
 *
 * @example
 * const latest = summariesFor(client.history, stored.summaries ?? []).at(-1);
 */
export function summariesFor(
  messages: readonly Message[],
  summaries: readonly ContextSummary[],
): ContextSummary[] {
  return summaries
    .filter(
      (summary) =>
        summary.covers > 0 &&
        summary.covers <= messages.length &&
        summaryFingerprint(messages, summary.covers) === summary.fingerprint,
    )
    .sort((a, b) => a.covers - b.covers);
}

function hashOf(message: Message): number {
  let hash = messageHashes.get(message);
  if (hash !== undefined) return hash;
  let text: string = message.role;
  const content = message.content;
  if (typeof content === 'string') text += `\u0001${content}`;
  else if (Array.isArray(content))
    for (const part of content) text += `\u0001${part.type === 'text' ? part.text : 'image'}`;
  if (message.role === 'assistant')
    for (const call of message.tool_calls ?? [])
      text += `\u0002${call.id}\u0003${call.function.name}\u0003${call.function.arguments}`;
  if (message.role === 'tool') text += `\u0004${message.tool_call_id}`;
  hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1)
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  hash >>>= 0;
  messageHashes.set(message, hash);
  return hash;
}
