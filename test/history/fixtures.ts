import type { AssistantMessage, Message, ToolMessage } from '../../src/types/message.js';

/** A user message. */
export const user = (content: string): Message => ({ role: 'user', content });

/** An assistant text turn. */
export const assistant = (content: string): Message => ({ role: 'assistant', content });

/** An assistant turn calling tools `name` with the given ids, in that order. */
export const callsTools = (...ids: string[]): AssistantMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => ({
    id,
    type: 'function',
    function: { name: `tool_${id}`, arguments: '{}' },
  })),
});

/** The result of tool call `id`. */
export const toolResult = (id: string, content = `result ${id}`): ToolMessage => ({
  role: 'tool',
  tool_call_id: id,
  name: `tool_${id}`,
  content,
});

/** A clock that ticks 1 ms per call, from `start`: deterministic `updatedAt` ordering. */
export function tickingClock(start = 1_000): () => number {
  let time = start;
  return () => time++;
}
