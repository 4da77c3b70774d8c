import type { ToolInputDelta } from '../../src/index.js';
import { ArgumentsView } from '../tool-card/arguments-view.js';
import type { FrameScheduler } from '../markdown/frame-scheduler.js';
import type { AssistantEntry } from './entry-types.js';

/**
 * A provisional tool card: a call whose arguments are still streaming in (from the
 * Client's `onToolInputDelta`). The real card replaces it when the call's `tool_use` (or
 * `tool_use_error`) event arrives, once the model's response has ended.
 */
export interface ToolInputPart {
  kind: 'tool-input';
  /** The call's position in the model response. */
  index: number;
  id: string | undefined;
  name: string | undefined;
  view: ArgumentsView;
}

/**
 * Records one delta in `entry`: a new provisional card, or new text for one (patched per
 * frame, without a re-render). Returns `true` when the entry's structure changed.
 */
export function applyToolInput(
  entry: AssistantEntry,
  delta: ToolInputDelta,
  scheduler: FrameScheduler | undefined,
): boolean {
  let part = entry.parts.find(
    (candidate): candidate is ToolInputPart =>
      candidate.kind === 'tool-input' && candidate.index === delta.index,
  );
  let changed = false;
  if (part === undefined) {
    part = {
      kind: 'tool-input',
      index: delta.index,
      id: undefined,
      name: undefined,
      view: new ArgumentsView(scheduler ? { scheduler } : {}),
    };
    entry.parts.push(part);
    changed = true;
  }
  if (delta.toolUseId !== undefined) part.id = delta.toolUseId;
  if (delta.name !== undefined && delta.name !== part.name) {
    part.name = delta.name;
    changed = true;
  }
  part.view.set(delta.inputText);
  return changed;
}

/**
 * Where the card of a settled call goes: the position of its provisional card (matched by
 * id, else the first one left without an id — calls settle in call order), removed from
 * `entry`. `undefined` when there is none.
 */
export function takeToolInput(entry: AssistantEntry, id: string | undefined): number | undefined {
  const parts = entry.parts;
  let position =
    id === undefined ? -1 : parts.findIndex((part) => part.kind === 'tool-input' && part.id === id);
  // A call the server sent without an id gets one only when it settles.
  if (position < 0)
    position = parts.findIndex((part) => part.kind === 'tool-input' && part.id === undefined);
  if (position < 0) return undefined;
  parts.splice(position, 1);
  return position;
}

/** Drops provisional cards no event settled (the response ended or failed without them). */
export function dropToolInputs(entry: AssistantEntry): boolean {
  const before = entry.parts.length;
  const kept = entry.parts.filter((part) => part.kind !== 'tool-input');
  if (kept.length === before) return false;
  entry.parts.length = 0;
  entry.parts.push(...kept);
  return true;
}
