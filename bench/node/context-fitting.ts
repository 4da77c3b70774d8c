import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { fitRequest } from '../../src/context/context-manager.js';
import type { ChatRequest, ToolDefinition } from '../../src/types/chat-request.js';
import { checked, info, type Figure } from '../support/figure.js';
import { timeFits, toolConversation, type FitTimes } from '../support/fit-loop.js';

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

/** Milliseconds to fit the conversation before one model call: cold (first call) and the median of later calls, each after one more message. */
async function fitTimes(count: number): Promise<FitTimes> {
  const messages = toolConversation(count);
  const backend = scriptedBackend([]);
  const options = { model: 'm', backend, contextWindow: WINDOW, maxTokens: 4096 };
  const request = (): ChatRequest => ({
    model: 'm',
    messages: [{ role: 'system', content: 'Be brief.' }, ...messages],
    stream: true,
    max_tokens: 4096,
    tools: TOOLS,
  });
  return timeFits(
    messages,
    request,
    async (next) => (await fitRequest(options, backend, next)).request.messages.length,
  );
}

/** Fitting a conversation to the window before a model call, at 100 and 10,000 messages. */
export async function contextFitting(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const count of [100, 10_000]) {
    const { coldMs, warmMs, sent, repeat } = await fitTimes(count);
    figures.push(
      checked({
        id: `context.fit.${count}`,
        label: `context: fit ${count.toLocaleString('en')} messages before a model call`,
        value: Number(warmMs.toFixed(3)),
        unit: 'ms',
        target: { op: '<', limit: 5 },
        note: `fitRequest to a ${WINDOW}-token window (turns of prompt, call, result, answer; ${sent} messages sent), median of ${repeat} calls, each after one more message; token counts are cached per message`,
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
