import type { ChatRequest } from '../../src/types/chat-request.js';
import type { Message } from '../../src/types/message.js';
import { median } from './stats.js';

/** Calls timed after the first (cold) one. */
const REPEAT = 50;

/**
 * `count` messages in turns of four: a prompt, a call, its result, an answer.
 *
 * @example
 * const messages = toolConversation(1000);
 */
export function toolConversation(count: number): Message[] {
  const messages: Message[] = [];
  for (let index = 0; messages.length < count; index += 1) {
    messages.push({
      role: 'user',
      content: `Question ${index}: what do the notes say about topic ${index}?`,
    });
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `call_${index}`,
          type: 'function',
          function: { name: 'lookup', arguments: `{"topic":"t${index}"}` },
        },
      ],
    });
    messages.push({
      role: 'tool',
      tool_call_id: `call_${index}`,
      content: `Notes on t${index}: ${'a fact worth keeping. '.repeat(10)}`,
    });
    messages.push({
      role: 'assistant',
      content: `Topic ${index} is about ${'this and that, '.repeat(8)}`,
    });
  }
  return messages.slice(0, count);
}

/** What {@link timeFits} measured. */
export interface FitTimes {
  /** The first call (it counts every message). */
  coldMs: number;
  /** The median of the later calls, each after one more message. */
  warmMs: number;
  /** Messages the last call sent. */
  sent: number;
  repeat: number;
}

/**
 * Times the fitting before a model call as a conversation grows: `fit` (resolving with the
 * number of messages sent) on the request `request()` builds from `messages` — once cold, then
 * {@link REPEAT} times, each after a follow-up prompt is appended to `messages`. The request is
 * built outside the timed part.
 *
 * @example
 * const { warmMs } = await timeFits(messages, request, async (next) => (await fitRequest(options, backend, next)).request.messages.length);
 */
export async function timeFits(
  messages: Message[],
  request: () => ChatRequest,
  fit: (request: ChatRequest) => Promise<number>,
): Promise<FitTimes> {
  let next = request();
  let start = performance.now();
  let sent = await fit(next);
  const coldMs = performance.now() - start;
  const times: number[] = [];
  for (let run = 0; run < REPEAT; run += 1) {
    messages.push({ role: 'user', content: `Follow-up ${run}: and then?` });
    next = request();
    start = performance.now();
    sent = await fit(next);
    times.push(performance.now() - start);
  }
  return { coldMs, warmMs: median(times), sent, repeat: REPEAT };
}
