import type { BranchPosition, Message } from '../../src/index.js';
import type { Entry, EntryBranches, UserEntry } from './entry-types.js';

/**
 * Marks the entries whose message has versions — an edited prompt, a regenerated answer
 * (the first assistant message after a prompt) — with `‹ active / count ›`, from the
 * Client's history. The nth user entry is the nth user message.
 */
export function markBranches(
  entries: readonly Entry[],
  history: readonly Message[],
  branchesAt: (messageIndex: number) => BranchPosition,
): void {
  let position = 0;
  history.forEach((message, messageIndex) => {
    if (message.role !== 'user') return;
    while (position < entries.length && entries[position]?.kind !== 'user') position += 1;
    const user = entries[position];
    if (!user) return;
    mark(user, messageIndex, branchesAt);
    const answer = entries[position + 1];
    if (answer?.kind === 'assistant' && history[messageIndex + 1]?.role === 'assistant') {
      mark(answer, messageIndex + 1, branchesAt);
    }
    position += 1;
  });
}

function mark(
  entry: Entry,
  messageIndex: number,
  branchesAt: (messageIndex: number) => BranchPosition,
): void {
  const { active, count } = branchesAt(messageIndex);
  const branches: EntryBranches | undefined =
    count > 1 ? { messageIndex, active, count } : undefined;
  const shown = entry.branches;
  if (
    shown?.active === branches?.active &&
    shown?.count === branches?.count &&
    shown?.messageIndex === branches?.messageIndex
  )
    return;
  if (branches) entry.branches = branches;
  else delete entry.branches;
  entry.version += 1;
}

/** The index in `history` of the user message the `entry` (a user entry of `entries`) shows. */
export function userMessageIndex(
  entries: readonly Entry[],
  entry: UserEntry,
  history: readonly Message[],
): number {
  let nth = entries.filter((other): other is UserEntry => other.kind === 'user').indexOf(entry);
  return history.findIndex((message) => message.role === 'user' && nth-- === 0);
}
