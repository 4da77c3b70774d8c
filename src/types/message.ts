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
 * `null` otherwise).
 */
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: AssistantToolCall[];
  /**
   * The model's reasoning for this turn (`reasoning_content`, `<think>` …), kept for display
   * only: stored and exported so a reloaded conversation shows it, and left out of every
   * request — the model never sees its reasoning again.
   */
  reasoning?: string;
  /**
   * `true` when the run was stopped (aborted) while this answer streamed: the text is cut off.
   * For display only, like `reasoning` (a reloaded conversation still says "Stopped.").
   */
  stopped?: true;
  /**
   * The prompt tokens of the request that produced this turn and the context window it was
   * fitted to, when the window is known. For display only (a context meter shows the same
   * figures after a reload); never sent to the model.
   */
  contextUse?: { promptTokens: number; contextWindow: number };
}

/**
 * A tool's result. `content` is text, or — for a result with images (e.g. an MCP tool's) —
 * {@link ContentPart}s. No server takes images in a tool message: the request moves them to a
 * user message right after the round's results (the tool message keeps the text and says so),
 * while `history` keeps them where the tool put them.
 */
export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  name?: string;
  content: string | ContentPart[];
  /**
   * How long the tool ran, in milliseconds, when known (a tool the loop executed, or a result
   * given with its duration). For display only, like `reasoning`: never sent to the model.
   */
  durationMs?: number;
}
