import type { Message } from '../../src/types/message.js';

/**
 * The loop's one shared invariant: every assistant tool call has exactly one tool result,
 * in call order, right after its assistant message (before the next assistant or user
 * message); no tool message answers a call that was not made.
 * @throws Error naming the first violation.
 */
export function assertHistoryConsistent(messages: readonly Message[]): void {
  let index = 0;
  while (index < messages.length) {
    const message = messages[index];
    index += 1;
    if (!message) continue;
    if (message.role === 'tool') {
      throw new Error(`Message ${index - 1}: tool result ${message.tool_call_id} answers no call`);
    }
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      const result = messages[index];
      if (result?.role !== 'tool' || result.tool_call_id !== call.id) {
        throw new Error(
          `Message ${index}: expected the result of tool call ${call.id}, got ${JSON.stringify(result)}`,
        );
      }
      index += 1;
    }
  }
}
