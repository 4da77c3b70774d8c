import { createToolRegistry } from '../tools/tool-registry.js';
import type { AgentEvent } from '../types/events.js';
import type { Message, UserContent } from '../types/message.js';
import { agentLoop, promptBlocked, pumpPhases } from './agent-loop.js';
import type { AgentOptions } from './agent-options.js';
import { backendFor } from './backend-for.js';
import { reportFor } from './report-for.js';
import { emptyConversationState } from './conversation-state.js';
import { runPromptHooks } from './hooks.js';

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
  prompt: UserContent,
  options: QueryOptions,
): AsyncGenerator<AgentEvent, void> {
  const { signal, ...rest } = options;
  const agentOptions: AgentOptions = { ...rest, autoExecuteTools: false };
  // What `new Client(agentOptions).run(prompt)` does for a conversation with no history
  // store, without the Client: an app that only calls query() then ships none of
  // Client's history, snapshot and approval code.
  const backend = backendFor(agentOptions);
  const registry = createToolRegistry(agentOptions.tools);
  const report = reportFor(agentOptions);
  const decision = await runPromptHooks(agentOptions.hooks, prompt, report);
  if (!decision.ok) {
    yield promptBlocked();
    return;
  }
  const state = emptyConversationState();
  state.messages.push({ role: 'user', content: decision.prompt });
  state.modelCallDue = true;
  yield* pumpPhases(
    agentLoop({
      options: agentOptions,
      backend,
      registry,
      state,
      signal,
      append: (...messages: Message[]) => state.messages.push(...messages),
      report,
    }),
  );
}
