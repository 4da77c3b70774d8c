import type { Message } from './message.js';

/** A function tool as sent to the server. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** `auto` | `required` | `none` | a named tool. */
export type ToolChoice =
  'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } };

/**
 * The streaming chat-completions request every backend receives (OpenAI wire format).
 * Backends for other wire formats (Ollama `/api/chat`) translate it.
 */
export interface ChatRequest {
  model: string;
  messages: Message[];
  stream: true;
  stream_options?: { include_usage: boolean };
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  temperature?: number;
  max_tokens?: number;
  /** Extra fields merged into the request body (e.g. Ollama `options: { num_ctx }`). */
  [extra: string]: unknown;
}

/**
 * What a transport can tell about a wait before the first token (optional: a backend may
 * never call `onWaiting`). `phase` as in the `waiting` event: `'loading_model'` (Ollama's
 * `/api/ps` does not list the model yet), `'reading_prompt'` (llama.cpp's `prompt_progress`,
 * or a model Ollama already holds), `'queued'`, `'waiting'`.
 */
export interface WaitReport {
  phase: 'connecting' | 'queued' | 'loading_model' | 'reading_prompt' | 'waiting' | (string & {});
  /** 0..1 when the server tells how far the phase is. */
  progress?: number | undefined;
  /** The model the wait is for. */
  model?: string | undefined;
}

/**
 * Anything that streams chat-completion chunks: an `openai` client, a WebLLM
 * `MLCEngine`, the {@link scriptedBackend}, or our fetch transport. Chunks are wire data
 * (`unknown`) until the aggregator reads them.
 */
export interface ChatBackend {
  chat: {
    completions: {
      create(
        request: ChatRequest,
        options?: { signal?: AbortSignal; onWaiting?: (report: WaitReport) => void },
      ): Promise<AsyncIterable<unknown>> | AsyncIterable<unknown>;
    };
  };
  /**
   * The model's context window in tokens, when the backend knows it (`webLLMBackend` reads
   * the engine's `context_window_size`). A backend that has it is fitted like a `baseURL`
   * server by default (`contextWindow: 'auto'`).
   */
  contextWindow?(model: string): number | undefined;
}

/**
 * Yielded by a transport after `data: [DONE]`: the stream ended on purpose. A stream that
 * ends without it and without a finish reason is truncated.
 */
export const STREAM_DONE = Object.freeze({ object: 'open-agent.stream_done' as const });

/**
 * The key of an optional method on a chunk source: `source[CHUNK_BATCHES]()` returns an
 * iterator of chunk *batches* (all the chunks one body read decoded), which the aggregator
 * prefers to one await per chunk. Registered (`Symbol.for`) so a second copy of the
 * library still recognises it.
 * @internal
 */
export const CHUNK_BATCHES: unique symbol = Symbol.for('open-agent.chunk-batches');
