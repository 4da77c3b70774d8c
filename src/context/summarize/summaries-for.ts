import type { ContextSummary } from '../../types/context-summary.js';
import type { Message } from '../../types/message.js';

/**
 * The summaries that apply to `messages` (the branch shown), oldest first: those whose
 * fingerprint matches the messages they cover (`Client.summaries` has every branch's; one that
 * does not validate, from a snapshot or a store, is left out). The checking code loads on the
 * first call.
 *
 * @example
 * const latest = (await summariesFor(client.history, client.summaries)).at(-1);
 * if (latest) console.log(`${latest.covers} messages summarised: ${latest.text}`);
 */
export async function summariesFor(
  messages: readonly Message[],
  summaries: readonly unknown[],
): Promise<ContextSummary[]> {
  return (await import('./summary-fingerprint.js')).summariesFor(messages, summaries);
}
