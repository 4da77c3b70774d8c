import type { Message } from './message.js';

/**
 * A message with versions: a regenerated answer or an edited prompt. The branch that holds
 * the fork goes on with one of `branches` (the `null` one: its own messages from `index` on);
 * the others wait, whole, to be switched to. JSON-safe (it travels in snapshots and files).
 *
 * @example
 * // history [user "Hi", assistant "Hello"], the answer regenerated once:
 * const fork: MessageFork = {
 *   index: 1,
 *   branches: [{ messages: [{ role: 'assistant', content: 'Hey' }], forks: [] }, null],
 * };
 */
export interface MessageFork {
  /** The index, in the branch that holds the fork, of the message that has versions. */
  index: number;
  /** Every version in the order made; exactly one is `null`: the one the branch holds. */
  branches: (MessageBranch | null)[];
}

/** A version of a message that is not shown: it and its continuation. */
export interface MessageBranch {
  /** The message (first) and everything after it in this branch. */
  messages: Message[];
  /** The forks inside this branch, their `index` counted in `messages`. */
  forks: MessageFork[];
}

/** Which version of a message the active branch holds (0-based), of how many. */
export interface BranchPosition {
  active: number;
  count: number;
}

/**
 * Where the message at `index` stands among its versions: `{ active: 0, count: 1 }` for a
 * message that has none. Reads only what it needs (forks may come from storage unchecked).
 */
export function branchPosition(
  forks: readonly MessageFork[] | undefined,
  index: number,
): BranchPosition {
  const fork = forks?.find((candidate) => candidate.index === index);
  const active = fork?.branches.indexOf(null) ?? -1;
  return fork && active >= 0 ? { active, count: fork.branches.length } : { active: 0, count: 1 };
}
