import type { AgentEvent } from '../types/events.js';
import type { AgentOptions } from './agent-options.js';
import { Client } from './client.js';

/** Options of {@link query}: the agent options plus an abort signal. */
export interface QueryOptions extends Omit<
  AgentOptions,
  'history' | 'conversationId' | 'autoExecuteTools'
> {
  signal?: AbortSignal;
}

/**
 * One model call, no tool execution: yields `text` / `reasoning` deltas as they arrive,
 * `tool_use` / `tool_use_error` when complete, then `step_end` and `done` (status
 * `awaiting_tool_results` when the model asked for tools — run them yourself, or use a
 * {@link Client} with `autoExecuteTools`).
 *
 * @throws AgentError on transport failures (`HTTP_ERROR`, `NETWORK_ERROR`, `STREAM_ERROR`…).
 * An abort is not thrown: the run ends with `done` status `cancelled`.
 * @example
 * for await (const event of query('Why is the sky blue?', { model: 'llama3.2', baseURL: 'http://localhost:11434/v1' })) {
 *   if (event.type === 'text') process.stdout.write(event.text);
 * }
 */
export async function* query(
  prompt: string,
  options: QueryOptions,
): AsyncGenerator<AgentEvent, void> {
  const { signal, ...agentOptions } = options;
  const client = new Client({ ...agentOptions, autoExecuteTools: false });
  yield* client.run(prompt, signal ? { signal } : {});
}
