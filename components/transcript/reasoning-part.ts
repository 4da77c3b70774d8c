import type { FrameScheduler } from '../markdown/frame-scheduler.js';
import { TextView } from '../markdown/text-view.js';
import type { AssistantEntry, ReasoningPart } from './entry-types.js';

/** A reasoning part holding `text`, still `streaming` or not. */
export function reasoningPart(
  text: string,
  streaming: boolean,
  scheduler?: FrameScheduler,
): ReasoningPart {
  const view = new TextView(scheduler ? { scheduler } : {});
  view.append(text);
  return { kind: 'reasoning', view, streaming };
}

/** Ends the streaming of `entry`'s reasoning parts; `true` when one was streaming. */
export function endReasoning(entry: AssistantEntry): boolean {
  let changed = false;
  for (const part of entry.parts) {
    if (part.kind === 'reasoning' && part.streaming) {
      part.streaming = false;
      changed = true;
    }
  }
  return changed;
}

/**
 * Where the trailing, unfinished text parts of `entry` begin when together they hold exactly
 * `text` (what this response showed as its answer); `undefined` when they hold anything else.
 */
export function shownTextStart(entry: AssistantEntry, text: string): number | undefined {
  let start = entry.parts.length;
  let shown = '';
  while (start > 0 && shown.length < text.length) {
    const part = entry.parts[start - 1];
    if (part?.kind !== 'text' || part.view.finished) break;
    shown = part.view.text + shown;
    start -= 1;
  }
  return shown === text ? start : undefined;
}
