import type { Waiting } from './events.js';
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
 * One streamed piece of an answer, in the OpenAI `chat.completion.chunk` shape — what a
 * {@link ChatBackend} yields. Only the fields the aggregator reads are named; everything else a
 * server adds passes through untouched. A backend may also yield {@link STREAM_DONE} (the stream
 * ended on purpose) and {@link WaitingChunk}s (before the first token).
 *
 * @example
 * const hello: ChatChunk = { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] };
 * const call: ChatChunk = {
 *   choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function',
 *     function: { name: 'add', arguments: '{"a":2,"b":3}' } }] }, finish_reason: 'tool_calls' }],
 * };
 * const usage: ChatChunk = { choices: [], usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } };
 */
export interface ChatChunk {
  object?: 'chat.completion.chunk' | (string & {});
  choices: {
    index: number;
    delta: {
      role?: 'assistant';
      /** A new piece of the answer's text (never repeated). */
      content?: string | null;
      /** A new piece of reasoning (llama.cpp, vLLM: `reasoning_content`; others `reasoning`). */
      reasoning_content?: string | null;
      /** Tool calls in pieces: `index` says which call, `arguments` text is appended. */
      tool_calls?: {
        index: number;
        id?: string;
        type?: 'function';
        function?: { name?: string; arguments?: string };
      }[];
    };
    /** Set on the last chunk of the answer: `stop`, `length`, `tool_calls`, … */
    finish_reason: string | null;
  }[];
  /** On the last chunk (or a chunk with `choices: []`): the tokens the call used. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  /** A failure reported inside the stream: the run fails with `STREAM_ERROR` and this message. */
  error?: { message: string } | string;
  [extra: string]: unknown;
}

/**
 * What a backend yields while no token of the answer has come yet — an in-page engine
 * downloading or compiling its model, say. The loop turns each into a `waiting` event
 * (`AgentEvent`), which UIs may show as a progress bar; it never enters the answer.
 *
 * @example
 * yield { object: WAITING_CHUNK, phase: 'loading_model', elapsedMs: 850, progress: 0.4, model: 'SmolLM2-135M' };
 */
export interface WaitingChunk {
  object: typeof WAITING_CHUNK;
  phase: Waiting['phase'];
  /** Milliseconds since the request was made. */
  elapsedMs: number;
  /** 0..1 when the backend knows how far the phase is. */
  progress?: number;
  /** The model the wait is for. */
  model?: string;
}

/** The `object` of a {@link WaitingChunk}. */
export const WAITING_CHUNK = 'open-agent.waiting' as const;

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
 * The contract between the loop and whatever produces an answer: `AgentOptions.backend`.
 * Our fetch transport (`createFetchBackend`), `webLLMBackend`, `wllamaBackend`,
 * `chromeAIBackend`, `scriptedBackend` and an `openai` client all fit it, and so does an
 * engine of your own in one file:
 *
 * - `chat.completions.create(request, { signal })` receives a {@link ChatRequest} (OpenAI
 *   wire format: `messages`, `tools`, `tool_choice`, `response_format`, `max_tokens`, …) and
 *   returns — or resolves to — an async iterable of {@link ChatChunk}s. It is called once per
 *   model call; the loop reads the iterable once, and stops reading (calling `return()`) when
 *   the run is stopped. Chunks are wire data (`unknown`) until the aggregator reads them: text,
 *   reasoning, tool calls in pieces, the finish reason and usage, with every server's quirks.
 * - End the stream with a chunk that has a `finish_reason` (or with {@link STREAM_DONE});
 *   ending without either is reported as `STREAM_TRUNCATED`.
 * - Before the first token, yield {@link WaitingChunk}s to report progress (model download
 *   and load): the loop yields them as `waiting` events. A transport that learns a wait's
 *   phase some other way (Ollama's `/api/ps`, llama.cpp's `prompt_progress`) may instead call
 *   `options.onWaiting(report)` ({@link WaitReport}); the loop turns those into `waiting` too.
 * - Honour `signal`: stop generating and end (or throw an `AbortError`) when it aborts.
 * - Throw an `AgentError` for failures, with the code that fits (`CONTEXT_OVERFLOW` for a
 *   prompt over the window, `NETWORK_ERROR` for a failed download); anything else thrown is
 *   reported as `STREAM_ERROR` with its message.
 * - `contextWindow(model)`, when the backend knows it, lets the loop fit requests to it.
 *
 * @example
 * const echo: ChatBackend = {
 *   chat: {
 *     completions: {
 *       async *create(request) {
 *         const last = request.messages.at(-1);
 *         const text = typeof last?.content === 'string' ? last.content : '';
 *         yield { choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] };
 *       },
 *     },
 *   },
 * };
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
   * the engine's `context_window_size`, `wllamaBackend` the loaded context). A backend that
   * has it is fitted like a `baseURL` server by default (`contextWindow: 'auto'`).
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
