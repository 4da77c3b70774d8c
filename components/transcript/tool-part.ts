import type { Message, PendingToolCall } from '../../src/index.js';
import type { AssistantEntry, ToolPart, ToolStatus } from './entry-types.js';

/** The tool card with this id in `entry`. */
export function findTool(entry: AssistantEntry, id: string): ToolPart | undefined {
  for (const part of entry.parts) if (part.kind === 'tool' && part.id === id) return part;
  return undefined;
}

/** Gives a card its final status (and how long it took, when it ran in this session). */
export function settle(
  part: ToolPart,
  status: ToolStatus,
  outcome: { result?: unknown; error?: string },
): void {
  part.status = status;
  if (part.elapsedMs === undefined && part.startedAt > 0) part.elapsedMs = now() - part.startedAt;
  if ('result' in outcome) part.result = outcome.result;
  if (outcome.error !== undefined) part.error = outcome.error;
  delete part.draft;
  delete part.draftError;
}

/**
 * What a denied card says: the reason, as the user gave it (`Tool "x" was denied: denied by the
 * user` → `Denied by the user`), the same live and after a reload.
 */
export function denialText(message: string): string {
  const reason = /was denied:\s*(.+)$/s.exec(message)?.[1] ?? message;
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/**
 * Gives the cards of `entry` the durations the runtime stored with their results (how long
 * each tool ran), in place of the page's own count from when its card appeared: what a
 * reload shows is then what was shown live. Returns whether a card changed.
 */
export function takeStoredDurations(entry: AssistantEntry, messages: readonly Message[]): boolean {
  let changed = false;
  for (const message of messages) {
    if (message.role !== 'tool' || message.durationMs === undefined) continue;
    const part = findTool(entry, message.tool_call_id);
    if (part && part.status !== 'running' && part.elapsedMs !== message.durationMs) {
      part.elapsedMs = message.durationMs;
      changed = true;
    }
  }
  if (changed) entry.version += 1;
  return changed;
}

/** Milliseconds on the page clock (what `<agent-elapsed since>` counts from). */
export function now(): number {
  return performance.now();
}

/** Calls of `entry` still waiting for approval or a result are given up (the Client answers them). */
export function cancelPending(entry: AssistantEntry, reason: string): void {
  for (const part of entry.parts) {
    if (part.kind === 'tool' && (part.status === 'approval' || part.status === 'external')) {
      settle(part, 'cancelled', { error: reason });
      entry.version += 1;
    }
  }
}

/** Shows calls waiting for the caller (approval or an external result) in `entry`. */
export function markPending(entry: AssistantEntry, pending: readonly PendingToolCall[]): void {
  for (const call of pending) {
    const status = call.reason === 'approval' ? 'approval' : 'external';
    const part = findTool(entry, call.toolUseId);
    if (part) {
      part.status = status;
      part.input = call.input;
    } else {
      entry.parts.push({
        kind: 'tool',
        id: call.toolUseId,
        name: call.name,
        input: call.input,
        status,
        startedAt: now(),
      });
    }
  }
  entry.version += 1;
}
