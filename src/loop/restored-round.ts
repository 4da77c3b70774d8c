import type { ToolRegistry } from '../tools/tool-registry.js';
import { isRecord } from '../types/is-record.js';
import type { Message } from '../types/message.js';
import type { RoundCall, ToolRound } from './conversation-state.js';

/**
 * A paused round read back — from a snapshot, a store (another page load, another tab) or an
 * imported file — made inert: no call in it runs without a decision made in this page. Every call
 * that has no result asks again (`pending`, reason `approval`; `external` for a tool the page
 * does not run), even one stored as approved (`ready`): what was decided elsewhere, or written
 * into a file by someone else, is not a decision of this page's user.
 *
 * The round is rebuilt from the last assistant message's unanswered calls — the calls the
 * transcript shows — so a stored round cannot add a call, rename one or hide one; from the stored
 * round it keeps only the (validated again on approval) input and results already settled.
 * `null` when no call waits for a result.
 */
export function restoredRound(
  round: ToolRound | null,
  messages: readonly Message[],
  options: { registry: ToolRegistry; autoExecuteTools: boolean },
): ToolRound | null {
  const unanswered = unansweredCalls(messages);
  if (unanswered.length === 0) return null;
  const calls = unanswered.map(({ id, name, input }): RoundCall => {
    const stored = round?.calls.find((call) => call.toolUseId === id && call.name === name);
    if (stored?.status === 'settled') return stored;
    const call = { toolUseId: id, name, input: stored?.input ?? input };
    const runnable = options.autoExecuteTools && options.registry.get(name)?.execute !== undefined;
    const external = !runnable || (stored?.status === 'pending' && stored.reason === 'external');
    return { ...call, status: 'pending', reason: external ? 'external' : 'approval' };
  });
  return { calls };
}

/** The calls of the last assistant message that no tool message answers. */
function unansweredCalls(
  messages: readonly Message[],
): { id: string; name: string; input: Record<string, unknown> }[] {
  let last = messages.length - 1;
  while (last >= 0 && messages[last]?.role === 'tool') last--;
  const assistant = messages[last];
  // Only tool results may follow the open round's calls: after a user message they were answered.
  if (assistant?.role !== 'assistant' || !assistant.tool_calls) return [];
  const answered = new Set(
    messages
      .slice(last + 1)
      .flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : [])),
  );
  return assistant.tool_calls
    .filter((call) => !answered.has(call.id))
    .map((call) => ({
      id: call.id,
      name: call.function.name,
      input: parsedArguments(call.function.arguments),
    }));
}

function parsedArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}
