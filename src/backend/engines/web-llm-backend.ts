import { AgentError, errorMessage } from '../../errors/agent-error.js';
import type { ChatBackend, ChatRequest } from '../../types/chat-request.js';
import { isRecord } from '../../types/is-record.js';
import type { Message } from '../../types/message.js';

/** The part of a WebLLM `MLCEngine` (`@mlc-ai/web-llm` 0.2) that {@link webLLMBackend} uses. */
export interface WebLLMEngine {
  chat: { completions: { create(request: ChatRequest): Promise<AsyncIterable<unknown>> } };
  /** Stops the generation in progress (WebLLM takes no `AbortSignal`). */
  interruptGenerate(): void;
}

/**
 * Wraps a WebLLM `MLCEngine` as a `backend`, adapting the requests and the stream to how
 * WebLLM 0.2 runs tools (read from its source, `@mlc-ai/web-llm` 0.2.86):
 *
 * - With `tools`, WebLLM forces the output into a JSON array of calls (Hermes function
 *   calling) and streams that JSON as `content` before repeating the calls, without ids, in
 *   the final chunk. The JSON is not shown as text; the calls are read from the final chunk.
 *   A model that wants no tool answers `[]`: it is asked again without tools to answer in
 *   text. A model that writes anything else — text, or `<tool_call>{…}</tool_call>` markup
 *   (WebLLM then throws `ToolCallOutputParseError` after streaming it, with no finish) — has
 *   its text passed on as it comes and ends with `stop`: the aggregator reads the calls
 *   from the markup (for registered tools), and plain text is the answer. After tool results, the request goes without tools, so the model answers from
 *   them (a forced JSON array could never be an answer): one tool round per prompt.
 * - WebLLM rejects a system message beside tools (it writes its own tool prompt): the
 *   system prompt goes at the top of the first user message instead.
 * - WebLLM reads only the `content` of an assistant message and rejects `null`: a call
 *   turn is echoed as the JSON array of its calls (after its text, if it had any).
 * - A `response_format` (from `responseFormat`) goes as WebLLM takes it — `json_object` with
 *   the schema as JSON text — and only on requests without tools (WebLLM sets its own for
 *   tools).
 * - Aborting the signal calls `engine.interruptGenerate()`.
 *
 * Only WebLLM's function-calling models (`functionCallingModelIds`: Hermes-2-Pro,
 * Hermes-3) accept tools; with any other model, give the agent no tools. The agent's
 * `model` must be the id the engine loaded (WebLLM picks the model by it).
 *
 * @throws AgentError `STREAM_ERROR` (from the stream) when the engine refuses a request or
 * fails while generating, with WebLLM's message.
 * @example
 * import { CreateMLCEngine } from '@mlc-ai/web-llm';
 * const engine = await CreateMLCEngine('Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC');
 * const client = new Client({ model: 'Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC', backend: webLLMBackend(engine), tools });
 */
export function webLLMBackend(engine: WebLLMEngine): ChatBackend {
  return {
    chat: {
      completions: {
        create: (request, options = {}) => webLLMChunks(engine, request, options.signal),
      },
    },
    contextWindow: (model) => engineWindow(engine, model),
  };
}

/**
 * The loaded model's `context_window_size` (its `mlc-chat-config.json`, with the `chatOpts`
 * the app loaded it with). WebLLM 0.2.86 exposes the chat config only in `MLCEngine`'s
 * `loadedModelIdToChatConfig` (private in its types, a plain Map at run time); a
 * `WebWorkerMLCEngine` keeps it in the worker. `-1` (a sliding-window model) and anything
 * else unreadable: unknown — the window is then learned from WebLLM's refusal
 * ("context window size: 4096").
 */
function engineWindow(engine: WebLLMEngine, model: string): number | undefined {
  const configs: unknown = (
    engine as { loadedModelIdToChatConfig?: unknown }
  ) // read, checked below
  .loadedModelIdToChatConfig;
  if (!(configs instanceof Map)) return undefined;
  const config: unknown = configs.get(model);
  const size = isRecord(config) ? config.context_window_size : undefined;
  return typeof size === 'number' && Number.isInteger(size) && size > 0 ? size : undefined;
}

async function* webLLMChunks(
  engine: WebLLMEngine,
  request: ChatRequest,
  signal: AbortSignal | undefined,
): AsyncGenerator<unknown> {
  const interrupt = () => engine.interruptGenerate();
  signal?.addEventListener('abort', interrupt, { once: true });
  try {
    yield* toolAwareChunks(engine, request, signal);
  } finally {
    signal?.removeEventListener('abort', interrupt);
  }
}

async function* toolAwareChunks(
  engine: WebLLMEngine,
  request: ChatRequest,
  signal: AbortSignal | undefined,
): AsyncGenerator<unknown> {
  const withTools =
    request.tools !== undefined &&
    request.tools.length > 0 &&
    request.tool_choice !== 'none' &&
    lastIsUser(request);
  if (!withTools) {
    yield* generate(engine, withoutTools(request));
    return;
  }
  let calls = false;
  const output = new OutputKind();
  const held: unknown[] = [];
  try {
    for await (const chunk of generate(engine, forTools(request))) {
      if (hasToolCalls(chunk)) calls = true;
      // The JSON list of calls: only the final chunk (the calls) and the usage chunk after
      // it are passed on. Anything else the model wrote (text, `<tool_call>` markup) is
      // passed on as it comes, once its first characters show it is not that list.
      if (!calls && output.kind !== 'text') {
        const kind = output.read(chunkContent(chunk));
        if (kind === 'unknown') held.push(chunk);
        if (kind !== 'text') continue;
        yield* held.splice(0);
      }
      yield chunk;
    }
  } catch (error) {
    if (calls || !isToolOutputError(error)) throw error;
    if (output.kind === 'text') {
      // Not a list of calls, so WebLLM throws instead of finishing (Hermes models sometimes
      // write `<tool_call>{…}</tool_call>` — the aggregator reads calls from that text): the
      // text was the answer.
      yield {
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      };
      return;
    }
    // The forced JSON cut off (max_tokens, an interrupt): no calls came, so the text
    // answer below stands.
  }
  if (!calls && output.kind !== 'text' && signal?.aborted !== true)
    yield* generate(engine, withoutTools(request));
}

/**
 * Whether a tools request's output is WebLLM's JSON list of calls (`[{` or `[]` after
 * whitespace) or something else the model wrote, once its first characters tell.
 */
class OutputKind {
  kind: 'unknown' | 'json' | 'text' = 'unknown';
  #start = '';

  read(piece: string): OutputKind['kind'] {
    if (this.kind !== 'unknown') return this.kind;
    this.#start = (this.#start + piece).replace(/\s+/g, '');
    if (this.#start === '' || this.#start === '[') return this.kind;
    this.kind = this.#start.startsWith('[{') || this.#start.startsWith('[]') ? 'json' : 'text';
    return this.kind;
  }
}

function chunkContent(chunk: unknown): string {
  if (!isRecord(chunk) || !Array.isArray(chunk.choices)) return '';
  const choice: unknown = chunk.choices[0];
  if (!isRecord(choice) || !isRecord(choice.delta)) return '';
  return typeof choice.delta.content === 'string' ? choice.delta.content : '';
}

/** Streams the engine's chunks, its refusals and failures as `STREAM_ERROR`. */
async function* generate(engine: WebLLMEngine, request: ChatRequest): AsyncGenerator<unknown> {
  try {
    yield* await engine.chat.completions.create(request);
  } catch (error) {
    if (isToolOutputError(error)) throw error;
    throw new AgentError('STREAM_ERROR', `WebLLM: ${errorMessage(error)}`, { cause: error });
  }
}

/** Whether `chunk` carries tool calls (WebLLM's final chunk of a tools request). */
function hasToolCalls(chunk: unknown): boolean {
  if (!isRecord(chunk) || !Array.isArray(chunk.choices)) return false;
  const choice: unknown = chunk.choices[0];
  if (!isRecord(choice) || !isRecord(choice.delta)) return false;
  const toolCalls = choice.delta.tool_calls;
  return Array.isArray(toolCalls) && toolCalls.length > 0;
}

const TOOL_OUTPUT_ERRORS = new Set([
  'ToolCallOutputParseError',
  'ToolCallOutputInvalidTypeError',
  'ToolCallOutputMissingFieldsError',
]);

function isToolOutputError(error: unknown): boolean {
  return error instanceof Error && TOOL_OUTPUT_ERRORS.has(error.name);
}

function lastIsUser(request: ChatRequest): boolean {
  return request.messages.at(-1)?.role === 'user';
}

/** The request as WebLLM runs tools: no system message (folded into the first user one). */
function forTools(request: ChatRequest): ChatRequest {
  // WebLLM sets its own response_format for tools (and throws CustomResponseFormatError on ours).
  const {
    tool_choice: _choice,
    parallel_tool_calls: _parallel,
    response_format: _format,
    ...rest
  } = request;
  const system = request.messages.filter((message) => message.role === 'system');
  const others = readableMessages(request.messages.filter((message) => message.role !== 'system'));
  if (system.length === 0) return { ...rest, messages: others };
  const instructions = system.map((message) => message.content).join('\n\n');
  const first = others.findIndex((message) => message.role === 'user');
  const messages = others.map((message, index) =>
    index === first && message.role === 'user'
      ? {
          ...message,
          content:
            typeof message.content === 'string'
              ? `${instructions}\n\n${message.content}`
              : [{ type: 'text' as const, text: instructions }, ...message.content],
        }
      : message,
  );
  return { ...rest, messages };
}

function withoutTools(request: ChatRequest): ChatRequest {
  const { tools: _tools, tool_choice: _choice, parallel_tool_calls: _parallel, ...rest } = request;
  const format = webLLMResponseFormat(request.response_format);
  return {
    ...rest,
    messages: readableMessages(request.messages),
    ...(format === undefined ? {} : { response_format: format }),
  };
}

/**
 * WebLLM 0.2 takes a JSON Schema only as `{ type: 'json_object', schema: <JSON text> }`
 * (`InvalidResponseFormatError` for `json_schema`).
 */
function webLLMResponseFormat(format: unknown): unknown {
  if (!isRecord(format) || format.type !== 'json_schema' || !isRecord(format.json_schema))
    return format;
  return { type: 'json_object', schema: JSON.stringify(format.json_schema.schema) };
}

/** Assistant messages as WebLLM reads them: string content, a call turn as its JSON array. */
function readableMessages(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const calls = message.tool_calls ?? [];
    const text = message.content ?? '';
    if (calls.length === 0) return { role: 'assistant', content: text };
    const json = JSON.stringify(
      calls.map((call) => ({
        name: call.function.name,
        arguments: parsed(call.function.arguments),
      })),
    );
    // Text beside calls (the model wrote them as markup after some text): both, so the
    // tool results that follow answer a call the model can see.
    return { role: 'assistant', content: text === '' ? json : `${text.trimEnd()}\n${json}` };
  });
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json) as unknown; // our own echo: arguments are always JSON text
  } catch {
    return {};
  }
}
