import type { TextMarkupOptions } from './text-markup-options.js';
import type { ChatBackend, ToolChoice } from '../types/chat-request.js';
import type { TimeoutOptions } from '../backend/fetch-backend.js';
import type { ToolSource } from '../tools/tool-registry.js';
import type { ToolInputDelta } from './tool-input-delta.js';
import type { ContextPolicy } from './context-policy.js';
import type { Hooks } from './hooks.js';
import type { LoopStrategy } from './loop-strategies.js';
import type { HistoryStore } from '../history/history-store.js';
import type { AgentError } from '../errors/agent-error.js';
import type { ToolCallToRepair } from './tool-input-repair.js';
import type { ResponseFormat } from './response-format.js';

export type { ToolInputDelta } from './tool-input-delta.js';
export type { ContextPolicy } from './context-policy.js';

/**
 * Everything a {@link Client} (or {@link query}) needs. Give `baseURL` for an
 * OpenAI-compatible server, or `backend` for anything with `chat.completions.create`
 * (an `openai` client, a WebLLM engine, {@link scriptedBackend}).
 */
export interface AgentOptions {
  /** The model name the server knows, e.g. `qwen3:8b`. */
  model: string;
  /** The server's OpenAI-compatible root, e.g. `http://localhost:11434/v1`. */
  baseURL?: string;
  /**
   * `'openai'` (default): `POST {baseURL}/chat/completions` over SSE. `'ollama'`: Ollama's
   * native `POST {baseURL}/api/chat` over NDJSON (the only one that accepts `num_ctx`).
   */
  api?: 'openai' | 'ollama';
  /** Sent as a bearer token. Default `'not-needed'` (local servers ignore it). */
  apiKey?: string;
  /** The fetch to use (inject one for tests, proxies, auth). Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Anything with `chat.completions.create(request, {signal})`; replaces `baseURL`. */
  backend?: ChatBackend;
  /** Sent as the system message of every request (never stored in `history`). */
  systemPrompt?: string;
  /**
   * The tools the model may call: an array, or a function returning the tools of the moment,
   * called again before every model call — for tool sets that change while a run goes on,
   * such as an MCP server's (`connectMcp`'s `tools` after `notifications/tools/list_changed`).
   * A call is checked against the tools of the request that asked for it.
   *
   * @example
   * const mcp = await connectMcp({ url: 'http://127.0.0.1:3001/mcp' });
   * const client = new Client({
   *   model: 'qwen3:8b',
   *   baseURL: 'http://localhost:11434/v1',
   *   tools: () => [getWeather, ...mcp.tools], // the server's current list, every call
   *   autoExecuteTools: true,
   * });
   */
  tools?: ToolSource;
  /** Run tools with `execute` automatically and loop. Default `false`: every tool is external. */
  autoExecuteTools?: boolean;
  /** At most this many rounds of tool execution per prompt. Default 5. */
  maxToolIterations?: number;
  /** Replaces `maxToolIterations`: asked before each continuation after tools. */
  loopStrategy?: LoopStrategy;
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  hooks?: Hooks;
  /** Persist the conversation (with `conversationId`). */
  history?: HistoryStore;
  /** The conversation to load and append to. Default: a new random id. */
  conversationId?: string;
  /**
   * Sampling temperature. Sent only when set: left out, the server's default applies (an
   * Ollama Modelfile's `PARAMETER temperature`, llama-server's `--temp`, LM Studio's preset).
   */
  temperature?: number;
  /**
   * The longest answer in tokens (`max_tokens`; Ollama's native `options.num_predict`). Sent
   * only when set: left out, the server's default applies (reasoning models often need more
   * than 4,096). The context window keeps room for the answer either way (this many tokens, or
   * up to 4,096 when unset, at most a quarter of the window) and lowers a `maxTokens` that
   * would overflow it.
   */
  maxTokens?: number;
  /**
   * The model's context window in tokens. `'auto'` (the default with `baseURL`) asks the
   * server once per model — llama.cpp `/props`, Ollama `/api/ps` and `/api/show`, LM Studio
   * `/api/v0/models`, vLLM `/v1/models` — and assumes 4,096 when none answers, corrected by
   * what refusals and reported usage reveal. With `backend`, `'auto'` asks the backend
   * (`webLLMBackend` reads the engine's `context_window_size`); a backend that cannot say
   * is not fitted unless a number is given. Every request is fitted to it, leaving room for
   * `maxTokens`.
   */
  contextWindow?: number | 'auto';
  /**
   * What to do when the conversation does not fit `contextWindow`. `'drop-oldest'`
   * (default): leave out the oldest turns — never the system prompt, the tools, or the
   * current prompt with the tool exchange after it; a long tool result of the current turn
   * may be shortened — and yield `context_trimmed`. `'error'`: fail with
   * `CONTEXT_OVERFLOW`. `'summarize'` (or a {@link SummarizePolicy} with its options): when
   * the next request would pass a threshold (default 0.75 of the prompt's room), the oldest
   * turns — never a tool call without its result — are summarised by one model call, and
   * requests send that summary (in the system message) in their place, yielding
   * `context_compacted`; later compactions summarise the last summary plus what came after.
   * The summary is stored beside the messages (`Client.summaries`, the history store, exported
   * files). If the summary call fails or is too slow, the oldest turns are left out as with
   * `'drop-oldest'` (`context_trimmed`) and `onError` says why. A function chooses the
   * messages to send (without the system prompt). Only what is sent changes: the stored
   * history keeps every message.
   *
   * @example
   * const client = new Client({
   *   model: 'qwen3:8b',
   *   baseURL: 'http://localhost:11434/v1',
   *   contextPolicy: ({ messages }) => messages.slice(-20),
   * });
   */
  contextPolicy?: ContextPolicy;
  /**
   * How long to wait for the server, in ms; reaching it ends the call with `NETWORK_ERROR`,
   * and the request is never sent again. A number limits both waits; `{ firstByte, idle }`
   * sets each. `firstByte` (response headers and first byte: loading the model, reading the
   * prompt — minutes on a laptop) has no limit by default: the `signal` (Stop) ends the wait
   * at any moment, and `waiting` events say how long it has lasted. `idle` (silence between
   * pieces of a started answer) defaults to 300,000 (5 minutes).
   *
   * @example
   * const client = new Client({
   *   model: 'qwen3:30b',
   *   baseURL: 'http://localhost:11434/v1',
   *   timeout: { firstByte: 10 * 60_000, idle: 60_000 },
   * });
   */
  timeout?: number | TimeoutOptions;
  /**
   * Re-sends a request only when the server provably did not start it: an HTTP 408, 409, 429
   * or 5xx answer, after its `Retry-After` (not a 5xx whose message names a server setting to
   * fix, such as llama.cpp's `--jinja`: that fails the same way each time), or a connection
   * that never opened (refused, DNS, no route — Node reports these; a browser's bare "Failed to
   * fetch" does not, and is not retried). A request the server may have accepted — a timeout,
   * a connection dropped after it was sent — is never sent again. Default 2 (3 requests at most).
   */
  maxRetries?: number;
  /**
   * Ask for the final answer as JSON matching a schema (zod or JSON Schema): the server
   * constrains its decoding to the schema, and the `done` event carries the parsed, validated
   * value as `output`. Invalid JSON or a value the schema rejects throws `VALIDATION_FAILED`
   * (the raw text in `context.text` and in history). The format goes on the calls that answer:
   * those that offer no tools, and the call after a round of tool results (sent without the
   * tools, so one round of tools per prompt); a call that offers tools goes without it.
   *
   * @example
   * for await (const event of query('Name a city and its country', {
   *   model: 'qwen3:8b',
   *   baseURL: 'http://localhost:11434/v1',
   *   responseFormat: { schema: z.object({ city: z.string(), country: z.string() }) },
   * })) {
   *   if (event.type === 'done') console.log(event.output); // { city: 'Oslo', country: 'Norway' }
   * }
   */
  responseFormat?: ResponseFormat;
  /**
   * Fields laid over every request body, last: an extra replaces what the options produced
   * (`{ temperature: 0.9 }` wins over `temperature`), `undefined` removes a field
   * (`{ max_tokens: undefined }`, `{ stream_options: undefined }`), and any other field is
   * sent as given (`top_p`, `seed`, llama.cpp's `min_p`, Ollama's `{ options: { num_ctx: 16384 } }`).
   * `messages` and `stream` are the runtime's own. With `api: 'ollama'`, OpenAI sampling
   * fields move into `options`. Precedence, lowest first: the options (`temperature`,
   * `maxTokens`, `toolChoice`…), then `requestExtras`, then the context window's fitting (it
   * lowers a `max_tokens` that would overflow and sets Ollama's `num_ctx` unless given here).
   *
   * @example
   * const client = new Client({
   *   model: 'qwen3:8b',
   *   baseURL: 'http://localhost:8080/v1',
   *   requestExtras: { top_p: 0.8, min_p: 0.05, stream_options: undefined },
   * });
   */
  requestExtras?: Record<string, unknown>;
  /** Called with errors that do not stop the run: storage failures (once), hook failures. */
  onError?: (error: AgentError) => void;
  /**
   * Called as a tool call's arguments stream in, before its `tool_use` event (which comes
   * once the response ends), e.g. to show a card filling up. Servers that split arguments
   * into fragments (llama.cpp, vLLM, LM Studio) call it once per fragment with the text so
   * far; servers that send calls whole (Ollama) call it once with the full text. The
   * events `query()` and the Client yield do not change. A throwing callback does not stop
   * the run: its first error goes to `onError` (code `TOOL_FAILED`).
   *
   * @example
   * const client = new Client({
   *   model: 'qwen3:8b',
   *   baseURL: 'http://localhost:8080/v1',
   *   tools: [getWeather],
   *   onToolInputDelta: ({ index, name, inputText }) => {
   *     cards[index] ??= createCard(name);
   *     cards[index].textContent = inputText; // e.g. '{"city":"Os'
   *   },
   * });
   */
  onToolInputDelta?: (delta: ToolInputDelta) => void;
  /**
   * Called when the text a response streamed so far turns out to be reasoning: a lone
   * `</think>` arrived (LM Studio or llama.cpp serving Qwen3-Thinking or DeepSeek-R1 with
   * reasoning left in content — their templates put `<think>` in the prompt, so only the
   * closing tag reaches the output). `text` is everything the earlier `text` events of this
   * response carried; move it from the answer you show into reasoning. History never
   * stores it as content. A throwing callback goes to `onError` (code `TOOL_FAILED`).
   *
   * @example
   * const client = new Client({
   *   model: 'qwen3-4b-thinking-2507',
   *   baseURL: 'http://localhost:1234/v1',
   *   onTextWasReasoning: (text) => {
   *     answer.textContent = answer.textContent.slice(0, -text.length);
   *     thoughts.textContent += text;
   *   },
   * });
   */
  onTextWasReasoning?: (text: string) => void;
  /**
   * Tried first when a call's input fails its tool's schema, before the built-in repairs
   * (`"5"` → `5`, `"true"` → `true`, `null` for an optional field left out, JSON text
   * where an object or array is expected parsed, a single value where an array is expected
   * wrapped). Return the input to use, or `undefined` to leave it to those repairs. The
   * input is used only when the schema accepts it; the `tool_use` event carries the input
   * actually used. A throw goes to `onError` (code `TOOL_FAILED`) and the built-in repairs
   * go on.
   *
   * @example
   * const client = new Client({
   *   model: 'llama3.2:3b',
   *   baseURL: 'http://localhost:11434/v1',
   *   tools: [getWeather],
   *   repairToolInput: ({ name, input }) =>
   *     name === 'get_weather' && typeof input.location === 'string' ? { city: input.location } : undefined,
   * });
   */
  repairToolInput?: (
    call: ToolCallToRepair,
    error: AgentError,
  ) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;
  /**
   * How the model's own markup in the text is read: tool calls recovered from text (read,
   * ask for approval, or off) and reasoning that starts mid-thought. See
   * {@link TextMarkupOptions}.
   */
  textMarkup?: TextMarkupOptions;

  // Trust (issue 27): bounds on what one model response can make the loop do and store.
  /**
   * Most tool calls of one model response that run; the others get an error result the model
   * reads (`TOOL_DENIED`). Default `DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE` (32).
   */
  maxToolCallsPerResponse?: number;
  /**
   * Longest tool result, in characters, kept in history and sent to the model; a longer one is
   * cut with a marker. The `tool_result` event keeps the whole value. Default
   * `DEFAULT_MAX_TOOL_RESULT_CHARACTERS` (100,000).
   */
  maxToolResultCharacters?: number;
}
