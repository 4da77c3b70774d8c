import { Client, tool, type AgentEvent } from '../../../src/index.js';
import { add, ADD_TOOL, scenarioName, type RunOutcome } from './run-scenarios.js';
import type { RunLoop } from './run-loops.js';

/**
 * The events of one `Client.run`, handled as a UI would (text appended, tool results listed,
 * steps counted).
 */
async function consume(
  events: AsyncIterable<AgentEvent>,
  observe: ((textLength: number) => void) | undefined,
): Promise<RunOutcome> {
  const outcome: RunOutcome = { text: '', toolResults: [], modelCalls: 0 };
  for await (const event of events) {
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
  return outcome;
}

/** One Client per process (page) and scenario, reused by every run. */
const reused = new Map<string, Client>();

/**
 * One `Client` reused across runs: built once (with its JSON-Schema tool), each run a new
 * conversation on it — `branchFrom(-1)` starts over (the earlier one stays a version), as an
 * app's "new chat" on a kept Client would.
 */
export const openAgentLoop: RunLoop = async ({ baseURL, scenario, observe }) => {
  const key = `${baseURL} ${scenarioName(scenario)}`;
  let client = reused.get(key);
  if (client === undefined) {
    client = new Client({
      model: scenarioName(scenario),
      baseURL,
      tools: [
        tool({
          name: ADD_TOOL.name,
          description: ADD_TOOL.description,
          input: { ...ADD_TOOL.parameters },
          execute: add,
        }),
      ],
      autoExecuteTools: true,
      maxToolIterations: 1_000,
      maxRetries: 0,
    });
    reused.set(key, client);
  } else {
    await client.branchFrom(-1);
  }
  return consume(client.run('Go'), observe);
};

/**
 * One new `Client` per run, as an app with many conversations (and the peer method of issue
 * 31) uses it: the tool defined inline with its JSON Schema written out, then `client.run`.
 */
export const openAgentNewLoop: RunLoop = async ({ baseURL, scenario, observe }) => {
  const client = new Client({
    baseURL,
    model: scenarioName(scenario),
    autoExecuteTools: true,
    maxToolIterations: 1_000,
    maxRetries: 0,
    tools: [
      tool({
        name: 'add',
        description: 'Adds two numbers',
        input: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
        execute: add,
      }),
    ],
  });
  const outcome = await consume(client.run('Go'), observe);
  await client.close();
  return outcome;
};
