import type { AssistantToolCall, Message, ToolMessage } from '../types/message.js';
import type { PausedState } from './history-store.js';

/** The content of the tool result that {@link repairDanglingToolCalls} inserts. */
export const INTERRUPTED_TOOL_RESULT =
  'Error: the tool call was interrupted (the page was closed or reloaded before it finished).';

/**
 * Gives every tool call that has no result an error result saying it was interrupted, so a
 * restored conversation never has a dangling call (strict servers — vLLM, llama.cpp with
 * `--jinja` templates, OpenAI — reject a request whose tool call lacks its result).
 *
 * A call's results are the tool messages between its assistant message and the next
 * assistant or user message. Missing ones are inserted right after that turn's existing
 * results, in call order. Calls listed in `pendingIds` (still awaited by a paused run) are left
 * alone. Returns a new array; the input is not changed.
 *
 * @example
 * const messages = repairDanglingToolCalls(stored, pendingToolCallIds(conversation.pending));
 */
export function repairDanglingToolCalls(
  messages: Message[],
  pendingIds: ReadonlySet<string> = new Set(),
): Message[] {
  const repaired: Message[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index] as Message; // index < length
    repaired.push(message);
    index += 1;
    if (message.role !== 'assistant' || !message.tool_calls?.length) continue;

    // Copy the turn (its tool results and anything else before the next assistant/user message),
    // remembering where its last tool result lands.
    const answered = new Set<string>();
    let insertAt = repaired.length;
    while (index < messages.length) {
      const next = messages[index] as Message; // index < length
      if (next.role === 'assistant' || next.role === 'user') break;
      repaired.push(next);
      index += 1;
      if (next.role === 'tool') {
        answered.add(next.tool_call_id);
        insertAt = repaired.length;
      }
    }
    const missing = message.tool_calls
      .filter((call) => !answered.has(call.id) && !pendingIds.has(call.id))
      .map(interruptedResult);
    repaired.splice(insertAt, 0, ...missing);
  }
  return repaired;
}

function interruptedResult(call: AssistantToolCall): ToolMessage {
  return {
    role: 'tool',
    tool_call_id: call.id,
    name: call.function.name,
    content: INTERRUPTED_TOOL_RESULT,
  };
}

/**
 * The tool calls a paused run still waits for: the `toolUseId` of each entry of its
 * `pending` array (the Client's snapshot lists `PendingToolCall`s there). Anything else in the
 * opaque state is ignored.
 */
export function pendingToolCallIds(pending: PausedState | undefined): Set<string> {
  const ids = new Set<string>();
  const calls = pending?.['pending'];
  if (!Array.isArray(calls)) return ids;
  for (const call of calls as unknown[]) {
    if (typeof call === 'object' && call !== null) {
      const id = (call as { toolUseId?: unknown }).toolUseId; // checked to be a string below
      if (typeof id === 'string') ids.add(id);
    }
  }
  return ids;
}
