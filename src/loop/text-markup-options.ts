/**
 * How a model's own markup in the answer's text is read ({@link AgentOptions.textMarkup}).
 *
 * @example
 * const client = new Client({
 *   model: 'qwen3.5-35b-a3b',
 *   baseURL: 'http://localhost:8080/v1',
 *   tools: [sendMoney],
 *   autoExecuteTools: true,
 *   // Calls found in the text (not sent as structured calls) wait for the user's approval.
 *   textMarkup: { toolCalls: 'ask' },
 * });
 */
export interface TextMarkupOptions {
  /**
   * Tool calls the model wrote as text (`<tool_call>…`, `[TOOL_CALLS]…`, a family's own
   * tokens) that the server did not parse: `'read'` (default) makes them calls, marked
   * `recoveredFromText: true` on their `tool_use` event; `'ask'` also pauses each for
   * approval (as `needsApproval` does) when it would run at once; `'off'` leaves them as
   * text. Markup in code, inline code, a block quote, or with prose after it on its line is
   * text in every mode.
   */
  toolCalls?: 'read' | 'ask' | 'off';
  /**
   * Whether the model's output starts mid-thought (its template ends the prompt with
   * `<think>`, so only `</think>` reaches the text). This option comes first; without it,
   * what the server said — llama.cpp's `/props` template, Ollama's `/api/show` capabilities
   * (`thinking`: Ollama splits the thought itself, so no), both read from the answers the
   * context window's probe asks, so from the second request on — then the model's name (QwQ,
   * Qwen3 / 3.5 / 3.6 thinking, DeepSeek R1 / V3.1 / V3.2, MiniMax M2, GLM-4.7 / 5). When it
   * does, up to 512 characters of an answer that opens with no tag are held until a
   * `</think>` shows they were reasoning, or a call marker ends the thought; a longer
   * tag-less answer then streams as text. A reasoning field from the server ends the hold at
   * once.
   */
  startsInReasoning?: boolean;
}
