import OpenAI from 'openai';
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { add, ADD_TOOL, scenarioName, type RunOutcome } from './run-scenarios.js';
import type { RunLoop } from './run-loops.js';

const TOOLS: ChatCompletionTool[] = [
  { type: 'function', function: { ...ADD_TOOL, parameters: { ...ADD_TOOL.parameters } } },
];

/**
 * What a developer writes with the `openai` SDK alone: stream each response, add up text and
 * call arguments by index, run the tools by hand, send the results, until no call comes.
 */
export const openAILoop: RunLoop = async ({ baseURL, scenario, observe }) => {
  const client = new OpenAI({ baseURL, apiKey: 'not-needed', dangerouslyAllowBrowser: true });
  const outcome: RunOutcome = { text: '', toolResults: [], modelCalls: 0 };
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Go' }];
  for (;;) {
    const stream = await client.chat.completions.create({
      model: scenarioName(scenario),
      messages,
      tools: TOOLS,
      stream: true,
    });
    outcome.modelCalls++;
    const calls: { id: string; name: string; arguments: string }[] = [];
    let text = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (typeof delta?.content === 'string' && delta.content !== '') {
        text += delta.content;
        outcome.text = text;
        observe?.(text.length);
      }
      for (const part of delta?.tool_calls ?? []) {
        const call = (calls[part.index] ??= { id: '', name: '', arguments: '' });
        if (part.id !== undefined) call.id = part.id;
        if (part.function?.name !== undefined) call.name = part.function.name;
        call.arguments += part.function?.arguments ?? '';
      }
    }
    if (calls.length === 0) return outcome;
    messages.push({
      role: 'assistant',
      content: text === '' ? null : text,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      })),
    });
    for (const call of calls) {
      const result = add(JSON.parse(call.arguments));
      outcome.toolResults.push(result);
      messages.push({ role: 'tool', tool_call_id: call.id, content: String(result) });
    }
  }
};
