import type { AssistantTurn } from '../stream/aggregate-stream.js';
import type { ChatRequest } from '../types/chat-request.js';
import type { AssistantMessage, AssistantToolCall, Message } from '../types/message.js';
import type { LoopContext } from './loop-context.js';
import { withExtras } from './request-extras.js';

// The messages of a model call: the request it sends (the conversation as sent) and the
// assistant message it stores from the turn (model-call.ts runs the call).

export function buildRequest({ options, registry, state, sent }: LoopContext): ChatRequest {
  const tools = registry.definitions;
  // Without what history keeps for display only (the Client's `sent`; see display-fields.ts).
  const messages = sent ? sent(sentMessages(state.messages)) : sentMessages(state.messages);
  const request: ChatRequest = {
    model: options.model,
    messages: options.systemPrompt
      ? [{ role: 'system', content: options.systemPrompt }, ...messages]
      : messages,
    stream: true,
    stream_options: { include_usage: true },
    // Sampling only when the app set it: otherwise the server's own settings apply (an
    // Ollama Modelfile's PARAMETER, llama-server's --temp and presets, LM Studio's presets).
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
    ...(tools ? { tools } : {}),
    ...(tools && options.toolChoice !== undefined ? { tool_choice: options.toolChoice } : {}),
    ...(tools && options.parallelToolCalls !== undefined
      ? { parallel_tool_calls: options.parallelToolCalls }
      : {}),
  };
  return options.requestExtras ? withExtras(request, options.requestExtras) : request;
}

/**
 * The conversation as sent: without a text-only assistant message that another assistant
 * message follows, or that ends the conversation — the partial answer of a response that
 * failed or was stopped, which a retry (`continue()`) answers again. Sent, it would be a
 * prefill the model continues (llama.cpp, Ollama) or refuses (llama.cpp with thinking on:
 * "Assistant response prefill is incompatible with enable_thinking"; WebLLM: the last
 * message must be from the user or a tool), and two assistant messages in a row break
 * templates that require alternating roles (Mistral, Gemma).
 */
function sentMessages(messages: readonly Message[]): Message[] {
  const sent: Message[] = [];
  // Per message per request: a loop, not a filter callback per message.
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message; // index < length
    const next = messages[index + 1];
    if (
      message.role !== 'assistant' ||
      (message.tool_calls?.length ?? 0) > 0 ||
      (next !== undefined && next.role !== 'assistant')
    )
      sent.push(message);
  }
  return sent;
}

/** A tool result with parts (images) among `messages`. A loop: it runs per message per request. */
export function hasToolImages(messages: readonly Message[]): boolean {
  for (const message of messages)
    if (message.role === 'tool' && Array.isArray(message.content)) return true;
  return false;
}

/**
 * The assistant message as echoed to the server: arguments as JSON strings, `content`
 * `null` only beside `tool_calls`. Calls with unusable arguments are echoed with `{}`
 * (strict templates parse them) so their error results have a call to answer.
 */
export function assistantMessage(turn: AssistantTurn): AssistantMessage {
  const toolCalls: AssistantToolCall[] = [
    ...turn.toolCalls.map((call) => ({
      id: call.id,
      type: 'function' as const,
      function: { name: call.name, arguments: JSON.stringify(call.input) },
    })),
    ...turn.invalidToolCalls.flatMap((call) =>
      call.toolUseId && call.name
        ? [
            {
              id: call.toolUseId,
              type: 'function' as const,
              function: { name: call.name, arguments: '{}' },
            },
          ]
        : [],
    ),
  ];
  const message: AssistantMessage =
    toolCalls.length === 0
      ? { role: 'assistant', content: turn.text }
      : { role: 'assistant', content: turn.text === '' ? null : turn.text, tool_calls: toolCalls };
  if (turn.reasoning) message.reasoning = turn.reasoning;
  return message;
}
