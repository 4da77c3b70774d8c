import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { fitRequest } from '../../src/context/context-manager.js';
import type { ChatRequest, ToolDefinition } from '../../src/types/chat-request.js';
import type { Message } from '../../src/types/message.js';
import { checked, info, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';

const REPEAT = 50;
const WINDOW = 32_768;
const TOOLS: ToolDefinition[] = [
  {
    type: 'function',
    function: {
      name: 'lookup',
      description: 'Looks a topic up',
      parameters: { type: 'object', properties: { topic: { type: 'string' } } },
    },
  },
];

/** `count` messages in turns of four: a prompt, a call, its result, an answer. */
function conversation(count: number): Message[] {
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

/** Milliseconds to fit the conversation before one model call: cold (first call) and the median of later calls, each after one more message. */
async function fitTimes(count: number): Promise<{ coldMs: number; warmMs: number; sent: number }> {
  const messages = conversation(count);
  const backend = scriptedBackend([]);
  const options = { model: 'm', backend, contextWindow: WINDOW, maxTokens: 4096 };
  const request = (): ChatRequest => ({
    model: 'm',
    messages: [{ role: 'system', content: 'Be brief.' }, ...messages],
    stream: true,
    max_tokens: 4096,
    tools: TOOLS,
  });
  let start = performance.now();
  let fitted = await fitRequest(options, backend, request());
  const coldMs = performance.now() - start;
  const times: number[] = [];
  for (let run = 0; run < REPEAT; run += 1) {
    messages.push({ role: 'user', content: `Follow-up ${run}: and then?` });
    const next = request();
    start = performance.now();
    fitted = await fitRequest(options, backend, next);
    times.push(performance.now() - start);
  }
  return { coldMs, warmMs: median(times), sent: fitted.request.messages.length };
}

/** Fitting a conversation to the window before a model call, at 100 and 10,000 messages. */
export async function contextFitting(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const count of [100, 10_000]) {
    const { coldMs, warmMs, sent } = await fitTimes(count);
    figures.push(
      checked({
        id: `context.fit.${count}`,
        label: `context: fit ${count.toLocaleString('en')} messages before a model call`,
        value: Number(warmMs.toFixed(3)),
        unit: 'ms',
        target: { op: '<', limit: 5 },
        note: `fitRequest to a ${WINDOW}-token window (turns of prompt, call, result, answer; ${sent} messages sent), median of ${REPEAT} calls, each after one more message; token counts are cached per message`,
      }),
      info({
        id: `context.fit.${count}.cold`,
        label: `context: fit ${count.toLocaleString('en')} messages, first call (counts every message)`,
        value: Number(coldMs.toFixed(3)),
        unit: 'ms',
      }),
    );
  }
  return figures;
}
