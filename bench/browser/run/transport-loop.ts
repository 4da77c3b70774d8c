import { createFetchBackend } from '../../../src/backend/fetch-backend.js';
import type * as AggregateStream from '../../../src/stream/aggregate-stream.js';
import type { Message } from '../../../src/types/message.js';
import { add, ADD_TOOL, scenarioName, type RunOutcome } from './run-scenarios.js';
import type { RunLoop } from './run-loops.js';

let aggregator: Promise<typeof AggregateStream> | undefined;

/**
 * Not a contender: what `Client.run` stands on, alone — our fetch transport and stream reader
 * (the aggregator the loop uses), with the conversation and the tools by hand as the floor
 * keeps them. Beside `Client.run`'s figure, it says how much of that is the agent loop.
 */
export const transportLoop: RunLoop = async ({ baseURL, scenario, observe }) => {
  const backend = createFetchBackend({ baseURL, maxRetries: 0 });
  const outcome: RunOutcome = { text: '', toolResults: [], modelCalls: 0 };
  const messages: Message[] = [{ role: 'user', content: 'Go' }];
  const tools = [{ type: 'function' as const, function: { ...ADD_TOOL } }];
  const toolNames = new Set([ADD_TOOL.name]);
  // Loaded on first use, as the loop loads it: a static import would put it in every loop's first load.
  const { aggregateStream } = await (aggregator ??=
    import('../../../src/stream/aggregate-stream.js'));
  for (;;) {
    const chunks = await backend.chat.completions.create({
      model: scenarioName(scenario),
      messages,
      tools,
      stream: true,
    });
    outcome.modelCalls++;
    const stream = aggregateStream(chunks, { toolNames });
    let step = await stream.next();
    for (; step.done !== true; step = await stream.next()) {
      if (step.value.type !== 'text') continue;
      outcome.text += step.value.text;
      observe?.(outcome.text.length);
    }
    const turn = step.value;
    if (turn.toolCalls.length === 0) return outcome;
    messages.push({
      role: 'assistant',
      content: turn.text === '' ? null : turn.text,
      tool_calls: turn.toolCalls.map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: JSON.stringify(call.input) },
      })),
    });
    for (const call of turn.toolCalls) {
      const result = add(call.input);
      outcome.toolResults.push(result);
      messages.push({ role: 'tool', tool_call_id: call.id, content: String(result) });
    }
  }
};
