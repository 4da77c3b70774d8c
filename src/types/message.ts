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

/**
 * One part of a user message: OpenAI's content parts. Images travel as `image_url` (a data
 * URL or an address the server can reach); the Ollama native API receives them as `images`.
 */
export type ContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** What a user says: text, or text and images as {@link ContentPart}s. */
export type UserContent = string | ContentPart[];

export interface UserMessage {
  role: 'user';
  content: UserContent;
}

/** The text of user content (its text parts joined by blank lines). */
export function contentText(content: UserContent): string {
  return typeof content === 'string'
    ? content
    : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n');
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
