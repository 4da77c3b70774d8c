/**
 * Conversation messages in the OpenAI chat-completions wire format — what `Client.history`
 * holds and what is sent to the server. Structurally compatible with the `openai`
 * package's `ChatCompletionMessageParam`.
 */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: string;
}

/** A tool call as echoed back to the server: `arguments` is always a JSON string. */
export interface AssistantToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * An assistant turn. `content` is `null` only beside `tool_calls` (strict servers reject
 * `null` otherwise). Reasoning is never stored here: servers must not see it again.
 */
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: AssistantToolCall[];
}

export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  name?: string;
  content: string;
}
