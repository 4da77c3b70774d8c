import { assertNever, type AgentEvent } from '../../src/index.js';
import type { AssistantEntry, ToolPart, ToolStatus } from './entry-types.js';
import { endReasoning } from './reasoning-part.js';
import { takeToolInput } from './tool-input-part.js';
import { denialText, findTool, now, settle } from './tool-part.js';

/** The events that place or settle a tool card. */
export type ToolEvent = Extract<
  AgentEvent,
  { type: 'tool_use' | 'tool_use_error' | 'tool_result' }
>;

/**
 * Records a tool event in `entry`: `tool_use` places a running card, `tool_use_error` settles
 * its card (or places one for a call that never ran, its id from `key` when it has none),
 * `tool_result` settles its card. Returns `true` when a card was placed or settled.
 */
export function applyToolEvent(
  entry: AssistantEntry,
  event: ToolEvent,
  key: () => number,
): boolean {
  switch (event.type) {
    case 'tool_use':
      endReasoning(entry);
      placeTool(entry, {
        kind: 'tool',
        id: event.id,
        name: event.name,
        input: event.input,
        status: 'running',
        startedAt: now(),
      });
      return true;
    case 'tool_use_error': {
      const part = event.toolUseId === undefined ? undefined : findTool(entry, event.toolUseId);
      const status: ToolStatus =
        event.code === 'TOOL_DENIED'
          ? 'denied'
          : event.code === 'EXECUTION_CANCELLED'
            ? 'cancelled'
            : 'error';
      if (part)
        settle(part, status, {
          error: status === 'denied' ? denialText(event.error) : event.error,
        });
      else {
        placeTool(entry, {
          kind: 'tool',
          id: event.toolUseId ?? `invalid-${key()}`,
          name: event.name ?? 'unknown tool',
          input: {},
          status,
          startedAt: now(),
          error: event.rawData === undefined ? event.error : `${event.error}\n\n${event.rawData}`,
        });
      }
      return true;
    }
    case 'tool_result': {
      const part = findTool(entry, event.toolUseId);
      if (!part) return false;
      settle(part, event.isError ? 'error' : 'done', { result: event.content });
      return true;
    }
    default:
      return assertNever(event);
  }
}

/** Puts a call's card where its provisional card was, else at the end. */
function placeTool(entry: AssistantEntry, part: ToolPart): void {
  const position = takeToolInput(entry, part.id);
  if (position === undefined) entry.parts.push(part);
  else entry.parts.splice(position, 0, part);
}
