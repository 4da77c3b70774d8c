import { Client, tool } from '../../../src/index.js';
import { add, ADD_TOOL, scenarioName, type RunOutcome } from './run-scenarios.js';
import type { RunLoop } from './run-loops.js';

const addTool = tool({
  name: ADD_TOOL.name,
  description: ADD_TOOL.description,
  input: { ...ADD_TOOL.parameters },
  execute: add,
});

/**
 * `Client.run` as an app uses it: a client with a JSON-Schema tool and `autoExecuteTools`,
 * every event handled as a UI would (text appended, tool results listed, steps counted).
 */
export const openAgentLoop: RunLoop = async ({ baseURL, scenario, observe }) => {
  const client = new Client({
    model: scenarioName(scenario),
    baseURL,
    tools: [addTool],
    autoExecuteTools: true,
    maxToolIterations: 1_000,
  });
  const outcome: RunOutcome = { text: '', toolResults: [], modelCalls: 0 };
  for await (const event of client.run('Go')) {
    switch (event.type) {
      case 'text':
        outcome.text += event.text;
        observe?.(outcome.text.length);
        break;
      case 'tool_result':
        if (event.isError) throw new Error(`open-agent: tool failed: ${String(event.content)}`);
        outcome.toolResults.push(event.content as number); // add() returned it
        break;
      case 'tool_use_error':
        throw new Error(`open-agent: ${event.code}: ${event.error}`);
      case 'step_end':
        outcome.modelCalls++;
        break;
      case 'reasoning':
      case 'tool_use':
      case 'awaiting_tool_results':
      case 'context_trimmed':
      case 'context_compacted':
      case 'waiting':
      case 'done':
        break;
    }
  }
  await client.close();
  return outcome;
};
