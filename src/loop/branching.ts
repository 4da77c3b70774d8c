import type { Message } from '../types/message.js';
import type { MessageBranch, MessageFork } from '../types/message-fork.js';
import type { ConversationState } from './conversation-state.js';
import type { LoopContext } from './loop-context.js';
import { cancelUnsettled, commitRound } from './round-calls.js';

type Context = Pick<LoopContext, 'state' | 'append'>;

// Loaded by the Client on the first branch or switch: a chat that never branches does not
// ship it. Forks are kept relative to the active branch (`state.messages`), sorted by index,
// at most one per index; everything after a fork's message belongs to its active version.

/**
 * Moves `messages[index…]` and the forks after `index` out of the active branch, as a branch
 * (fork indexes counted from `index`).
 */
function detach(state: ConversationState, forks: MessageFork[], index: number): MessageBranch {
  const branch: MessageBranch = {
    messages: state.messages.slice(index),
    forks: forks.filter((fork) => fork.index > index).map((fork) => shift(fork, -index)),
  };
  state.messages.length = index;
  state.forks = forks.filter((fork) => fork.index <= index);
  return branch;
}

/** Puts `branch` back at `index` of the active branch (which ends there). */
function attach(state: ConversationState, branch: MessageBranch, index: number): void {
  state.messages.push(...branch.messages);
  state.forks = [...(state.forks ?? []), ...branch.forks.map((fork) => shift(fork, index))];
}

function shift(fork: MessageFork, by: number): MessageFork {
  return { ...fork, index: fork.index + by };
}

/** A cut before `index` must not part a tool call from its result. */
function assertCut(messages: readonly Message[], index: number, method: string): void {
  if (messages[index]?.role === 'tool') {
    throw new TypeError(
      `${method}: message ${index} is a tool result; branch at its assistant message`,
    );
  }
}

/**
 * Leaves the branch shown: calls still pending are answered (`EXECUTION_CANCELLED`), so no
 * branch keeps a call without a result; nothing is due any more.
 */
function leave(context: Context, reason: string): void {
  const { state } = context;
  if (state.round) {
    cancelUnsettled(state.round, () => reason, true);
    commitRound(context);
  }
  state.round = null;
  state.modelCallDue = false;
  state.iterationCount = 0;
}

/** `Client.branchFrom(index - 1)`: see there. */
export function branchFrom(context: Context, index: number): void {
  assertCut(context.state.messages, index, 'branchFrom');
  leave(context, 'Skipped: the conversation went on in another branch');
  branchAt(context.state, index);
}

/** `Client.switchBranch`: see there. */
export function switchBranch(context: Context, index: number, version: number): void {
  const fork = context.state.forks?.find((candidate) => candidate.index === index);
  if (fork?.branches[version] === undefined) {
    throw new RangeError(`switchBranch: message ${index} has no version ${version}`);
  }
  leave(context, 'Skipped: the user switched to another branch');
  switchTo(context.state, index, version);
}

/**
 * Starts a new version of the message at `index`: what the active branch held from there on
 * becomes an earlier version of it; the active branch ends before `index` until something is
 * added. A message past the end has nothing to keep: the branch is only cut.
 */
function branchAt(state: ConversationState, index: number): void {
  if (index >= state.messages.length) return;
  const forks = state.forks ?? [];
  const fork = forks.find((candidate) => candidate.index === index);
  const branch = detach(state, forks, index);
  const kept = state.forks ?? [];
  if (fork) {
    fork.branches[fork.branches.indexOf(null)] = branch;
    fork.branches.push(null);
  } else {
    kept.push({ index, branches: [branch, null] });
  }
}

/**
 * Shows version `version` of the message at `index`: the active version (and its
 * continuation) is kept as a branch, the chosen one and its continuation become the active
 * branch. An empty active version (a branch begun, nothing sent) is dropped, not kept.
 */
function switchTo(state: ConversationState, index: number, version: number): void {
  const forks = state.forks ?? [];
  const fork = forks.find((candidate) => candidate.index === index);
  const target = fork?.branches[version];
  if (!fork || !target) return; // checked by switchBranch; null: already shown
  const current = fork.branches.indexOf(null);
  const branch = detach(state, forks, index);
  fork.branches[version] = null;
  if (branch.messages.length > 0) fork.branches[current] = branch;
  else fork.branches.splice(current, 1);
  attach(state, target, index);
  if (fork.branches.length < 2) state.forks = (state.forks ?? []).filter((other) => other !== fork);
}
