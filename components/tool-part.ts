import type { AssistantEntry, ToolPart, ToolStatus } from './transcript.js';

/** The tool card with this id in `entry`. */
export function findTool(entry: AssistantEntry, id: string): ToolPart | undefined {
  for (const part of entry.parts) if (part.kind === 'tool' && part.id === id) return part;
  return undefined;
}

/** Gives a card its final status (and how long it took, when it ran in this session). */
export function settle(part: ToolPart, status: ToolStatus, outcome: { result?: unknown; error?: string }): void {
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

/** Milliseconds on the page clock (what `<agent-elapsed since>` counts from). */
export function now(): number {
  return performance.now();
}
