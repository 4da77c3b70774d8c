import type { ContextSummary } from '../../types/context-summary.js';
import type { Message } from '../../types/message.js';
import { contextSummarySchema } from '../../types/message-schema.js';
import { valibotCheck } from '../../types/valibot-check.js';

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
  for (let index = 0; index < count && index < messages.length; index += 1)
    hash = Math.imul(hash ^ hashOf(messages[index] as Message), 0x01000193);
  return `${count}-${(hash >>> 0).toString(36)}`;
}

const checkSummary = valibotCheck<ContextSummary>(contextSummarySchema);

/**
 * The summaries that apply to `messages` (the branch shown), oldest first: those whose
 * fingerprint matches the messages they cover (`Client.summaries` has every branch's; one
 * that does not validate, from a snapshot or a store, is left out).
 *
 * The public, lazily loading form is summaries-for.ts.
 */
export function summariesFor(
  messages: readonly Message[],
  summaries: readonly unknown[],
): ContextSummary[] {
  return summaries
    .flatMap((value) => {
      const checked = checkSummary(value);
      return checked.success ? [checked.data] : [];
    })
    .filter(
      (summary) =>
        summary.covers <= messages.length &&
        summaryFingerprint(messages, summary.covers) === summary.fingerprint,
    )
    .sort((a, b) => a.covers - b.covers);
}

function hashOf(message: Message): number {
  let hash = messageHashes.get(message);
  if (hash !== undefined) return hash;
  const content = message.content;
  const text = JSON.stringify([
    message.role,
    typeof content === 'string' || content === null
      ? content
      : content.map((part) => (part.type === 'text' ? part.text : 'image')),
    message.role === 'assistant'
      ? message.tool_calls?.map((call) => [call.id, call.function.name, call.function.arguments])
      : undefined,
    message.role === 'tool' ? message.tool_call_id : undefined,
  ]);
  hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1)
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  messageHashes.set(message, hash);
  return hash;
}
