import type { AgentErrorCode } from '../errors/agent-error.js';
import type { Usage } from './usage.js';

/** Why a model response ended. `stop` with tool calls is reported as `tool_calls`. */
export type FinishReason =
  'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error' | (string & {});

/** A new text delta, never repeated. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** A reasoning delta (`reasoning_content`, `reasoning`, or `<think>` content). */
export interface ReasoningBlock {
  type: 'reasoning';
  text: string;
}

/** A complete, parsed tool call. */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  /**
   * `true` when the call was recovered from the answer's text (`<tool_call>…`, `[TOOL_CALLS]`,
   * a model family's own markup, harmony channels left in `content`) rather than sent by the
   * server as a structured call: text can be quoted from a web page or a document, so a UI or
   * a `PreToolUse` hook may treat such a call with more care. `AgentOptions.textMarkup`
   * turns recovery off or makes these calls ask for approval. Absent for structured calls.
   */
  recoveredFromText?: true;
}

/** A tool call that could not be used (bad arguments, unknown tool, failure…). Recoverable. */
export interface ToolUseError {
  type: 'tool_use_error';
  code: AgentErrorCode;
  error: string;
  rawData?: string;
  toolUseId?: string;
  name?: string;
}

/** The result of a tool call. `content` is the original value (not stringified). */
export interface ToolResultBlock {
  type: 'tool_result';
  toolUseId: string;
  name: string;
  content: unknown;
  isError: boolean;
}

/** The end of one model call. `iteration` counts model calls in this run, from 1. */
export interface StepEnd {
  type: 'step_end';
  iteration: number;
  finishReason: FinishReason;
  usage?: Usage;
  /**
   * The context window (tokens) this call's request was fitted to — beside
   * `usage.promptTokens`, how full the window was (`<agent-chat>`'s context meter). Absent
   * when no window applies (a backend that does not fit to one).
   */
  contextWindow?: number;
  /**
   * `contextPolicy: 'summarize'`: what the summary call made before this request cost — one
   * that failed or stopped partway too (its prompt and what it wrote, estimated when the server
   * did not say). Not in `usage`, whose prompt is this request's alone; `done.usage` and the
   * client's `usage` count both. When the request after a summary call fails or is stopped,
   * that call still ends with a `step_end`: `finishReason` `'error'`, no `usage`, and this.
   */
  summaryUsage?: Usage;
}

/** A tool call the caller must settle: an external tool, or one waiting for approval. */
export interface PendingToolCall {
  toolUseId: string;
  name: string;
  input: Record<string, unknown>;
  reason: 'external' | 'approval';
}

/** The run paused: submit results for (or approve/deny) every pending call, then resume. */
export interface AwaitingTools {
  type: 'awaiting_tool_results';
  pending: PendingToolCall[];
}

/** How a run ended. */
export type DoneStatus = 'completed' | 'awaiting_tool_results' | 'max_iterations' | 'cancelled';

/** The last event of every run. `usage` is this run's usage. */
export interface Done {
  type: 'done';
  status: DoneStatus;
  finishReason: FinishReason | null;
  usage: Usage;
  iterations: number;
  /** With `responseFormat`: the final answer, parsed from its JSON text and validated. */
  output?: unknown;
}

/**
 * Yielded before a model call whose request leaves out older messages to fit the model's
 * context window (see `AgentOptions.contextPolicy`). The stored history keeps them.
 */
export interface ContextTrimmed {
  type: 'context_trimmed';
  /** Stored messages not sent with this request (the oldest turns). */
  droppedMessages: number;
  /** The estimated prompt tokens of the request as sent. */
  promptTokens: number;
  /** The window (tokens) the request was fitted to. */
  contextWindow: number;
}

/**
 * Yielded while no token of the answer has arrived — the server is loading the model,
 * reading the prompt, or queueing the request — and again as the wait goes on. UIs may
 * ignore it; it ends with the first `text`, `reasoning` or `tool_use` of the response.
 */
export interface Waiting {
  type: 'waiting';
  /**
   * What the wait is, where the server or engine can tell: `'connecting'`, `'queued'`
   * (another request holds the server's one slot), `'loading_model'` (into memory, or an
   * in-page engine downloading or compiling it), `'reading_prompt'`, `'summarizing'` (the
   * summary call of `contextPolicy: 'summarize'`, before the answer's own request), or
   * `'waiting'` (no more is known).
   */
  phase: 'connecting' | 'queued' | 'loading_model' | 'reading_prompt' | 'waiting' | (string & {});
  /** Milliseconds since the request was sent. */
  elapsedMs: number;
  /** 0..1, when the server or engine tells how far the phase is. */
  progress?: number;
  /** The model the wait is for, when known (e.g. the one being loaded). */
  model?: string;
}

/**
 * Yielded before a model call whose request sends a summary in place of older messages
 * (`contextPolicy: 'summarize'`). The stored history keeps every original message.
 */
export interface ContextCompacted {
  type: 'context_compacted';
  /** Stored messages the summary stands for in this request. */
  summarizedMessages: number;
  /** The estimated prompt tokens of the request as sent. */
  promptTokens: number;
  /** The window (tokens) the request was fitted to. */
  contextWindow: number;
}

/** Everything `query()` and `Client.receiveMessages()` yield, discriminated by `type`. */
export type AgentEvent =
  | TextBlock
  | ReasoningBlock
  | ToolUseBlock
  | ToolUseError
  | ToolResultBlock
  | StepEnd
  | AwaitingTools
  | ContextTrimmed
  | ContextCompacted
  | Waiting
  | Done;

/** For exhaustive switches: a compile error when a case is missing. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
