/**
 * A tool call's arguments as they stream in: what `AgentOptions.onToolInputDelta`
 * receives. Not an `AgentEvent`: the call is still reported whole by `tool_use`.
 */
export interface ToolInputDelta {
  /** The call's position in the model response (0 for the first call). */
  index: number;
  /** The call's id, once the server sent it (the `tool_use` event's `id`). */
  toolUseId?: string;
  /** The tool's name, once the server sent it. */
  name?: string;
  /** The raw arguments text received so far for this call — the whole text, not only the new piece. */
  inputText: string;
}
