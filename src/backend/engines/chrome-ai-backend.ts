import { AgentError, errorMessage, isAbortError, isAgentError } from '../../errors/agent-error.js';
import type { ChatBackend, ChatRequest } from '../../types/chat-request.js';
import { isRecord } from '../../types/is-record.js';
import type {
  LanguageModelAPI,
  LanguageModelAvailability,
  LanguageModelMessage,
  LanguageModelSession,
} from './chrome-ai-types.js';
import { constrainedChunks } from './constrained-chunks.js';
import { constrainTools, textOnlyMessages } from './constrained-tools.js';
import { type LoadProgressListener, ModelLoading } from './model-loading.js';

/** What {@link chromeAIBackend} runs. */
export interface ChromeAIBackendOptions {
  /** The Prompt API's entry point. Default: the browser's global `LanguageModel` (inject a fake in tests). */
  languageModel?: LanguageModelAPI;
  /** Sampling, passed to `LanguageModel.create()` (Chrome takes both or neither). */
  sampling?: { temperature: number; topK: number };
}

/** A {@link ChatBackend} on Chrome's built-in model, with its availability and download exposed. */
export interface ChromeAIBackend extends ChatBackend {
  /** `'absent'` when the browser has no Prompt API; else what `LanguageModel.availability()` says. */
  availability(): Promise<LanguageModelAvailability | 'absent'>;
  /** Downloads the model if needed (the browser keeps it for every site) and checks it runs. */
  load(options?: { onProgress?: LoadProgressListener }): Promise<void>;
}

/**
 * A backend on Chrome's built-in model (Gemini Nano through the Prompt API, `LanguageModel`,
 * shipped in Chrome 148): no server, no download by the page — the browser downloads the model
 * once, for every site, and runs it on the device.
 *
 * - Each request runs in a fresh session: the conversation goes in `initialPrompts`, the last
 *   user turn is prompted with `promptStreaming()`, and the session is destroyed after.
 * - The browser's download progress arrives as `waiting` events (`phase: 'loading_model'`).
 * - `contextWindow()` is the session's `contextWindow`, once one was created; a prompt over it
 *   fails with `CONTEXT_OVERFLOW`.
 * - Tools (native tool use is still behind a flag): the answer is constrained with
 *   `responseConstraint` to an answer or calls of the registered tools, as for wllama.
 * - `responseFormat` goes as `responseConstraint`. `max_tokens` is not supported by the API.
 *
 * @throws AgentError (from the stream) `STREAM_ERROR` when the API is absent or the model
 *   unavailable on this device (with what to do), `CONTEXT_OVERFLOW` for a prompt over the
 *   window, `STREAM_ERROR` for the model's other failures.
 * @example
 * const backend = chromeAIBackend();
 * if ((await backend.availability()) !== 'unavailable') {
 *   const client = new Client({ model: 'gemini-nano', backend });
 * }
 */
export function chromeAIBackend(options: ChromeAIBackendOptions = {}): ChromeAIBackend {
  const api = () => options.languageModel ?? globalLanguageModel();
  let contextWindow: number | undefined;
  const remember = (session: LanguageModelSession) => {
    contextWindow = session.contextWindow ?? session.inputQuota ?? contextWindow;
  };
  const loading = new ModelLoading((onProgress) => ready(api(), onProgress, remember));
  return {
    chat: {
      completions: {
        create: (request, { signal } = {}) =>
          chromeChunks({ api, loading, request, signal, sampling: options.sampling, remember }),
      },
    },
    contextWindow: () => contextWindow,
    async availability() {
      const languageModel = api();
      return languageModel ? languageModel.availability() : 'absent';
    },
    async load({ onProgress } = {}) {
      await loading.load(onProgress);
    },
  };
}

function globalLanguageModel(): LanguageModelAPI | undefined {
  const candidate: unknown = (globalThis as { LanguageModel?: unknown }).LanguageModel;
  // The browser's own object; only its presence is checked here, its methods on use.
  return candidate === undefined ? undefined : (candidate as LanguageModelAPI);
}

/** Checks availability, and has the browser download the model when it must (one throwaway session). */
async function ready(
  api: LanguageModelAPI | undefined,
  onProgress: LoadProgressListener,
  remember: (session: LanguageModelSession) => void,
): Promise<LanguageModelAPI> {
  if (!api)
    throw new AgentError(
      'STREAM_ERROR',
      "Chrome's built-in model is not in this browser (no LanguageModel: the Prompt API ships in desktop Chrome 148 and later). Use another backend, such as wllamaBackend.",
    );
  const availability = await api.availability();
  if (availability === 'unavailable')
    throw new AgentError(
      'STREAM_ERROR',
      "Chrome's built-in model is unavailable on this device (LanguageModel.availability() is 'unavailable': it needs enough disk space, memory and a supported GPU or CPU; see chrome://on-device-internals). Use another backend, such as wllamaBackend.",
    );
  if (availability !== 'available') {
    const session = await api.create({
      monitor: (monitor) =>
        monitor.addEventListener('downloadprogress', (event) => {
          const loaded = (event as Event & { loaded?: unknown }).loaded; // a ProgressEvent, read with care
          if (typeof loaded === 'number') onProgress(Math.min(1, loaded));
        }),
    });
    remember(session);
    session.destroy();
    onProgress(1);
  }
  return api;
}

async function* chromeChunks(input: {
  api: () => LanguageModelAPI | undefined;
  loading: ModelLoading<LanguageModelAPI>;
  request: ChatRequest;
  signal: AbortSignal | undefined;
  sampling: ChromeAIBackendOptions['sampling'];
  remember: (session: LanguageModelSession) => void;
}): AsyncGenerator<unknown> {
  const { loading, request, signal } = input;
  const api = yield* loading.waitFor({ model: request.model, signal });
  const constrained = constrainTools(request);
  const messages = (constrained?.messages ?? textOnlyMessages(request.messages)).map(
    toPromptMessage,
  );
  const last = lastUserIndex(messages);
  const history = last === -1 ? messages : messages.slice(0, last);
  const prompt = last === -1 ? [] : messages.slice(last);
  const format = request.response_format;
  const constraint = constrained?.schema ?? responseSchema(format);
  let session: LanguageModelSession | undefined;
  try {
    session = await api.create({
      initialPrompts: history,
      ...(signal ? { signal } : {}),
      ...(input.sampling ?? {}),
    });
    input.remember(session);
    const stream = session.promptStreaming(prompt, {
      ...(signal ? { signal } : {}),
      ...(constraint === undefined ? {} : { responseConstraint: constraint }),
      // The tools are described in the system prompt already.
      ...(constrained ? { omitResponseConstraintInput: true } : {}),
    });
    const chunks = textChunks(stream);
    yield* constrained ? constrainedChunks(chunks) : chunks;
  } catch (error) {
    throw chromeFailure(error);
  } finally {
    session?.destroy();
  }
}

/** The stream's text deltas as chunks, ending with `stop`. */
async function* textChunks(stream: ReadableStream<string>): AsyncGenerator<unknown> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value !== '')
        yield {
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: { content: value }, finish_reason: null }],
        };
    }
  } finally {
    reader.releaseLock();
  }
  yield {
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
  };
}

function lastUserIndex(messages: readonly LanguageModelMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--)
    if (messages[index]?.role === 'user') return index;
  return -1;
}

function toPromptMessage(message: { role: string; content: unknown }): LanguageModelMessage {
  const role = message.role === 'system' || message.role === 'assistant' ? message.role : 'user';
  return { role, content: typeof message.content === 'string' ? message.content : '' };
}

/** `response_format: { type: 'json_schema', json_schema: { schema } }` → the schema. */
function responseSchema(format: unknown): unknown {
  if (!isRecord(format) || format.type !== 'json_schema' || !isRecord(format.json_schema))
    return undefined;
  return format.json_schema.schema;
}

function chromeFailure(error: unknown): unknown {
  if (isAbortError(error) || isAgentError(error)) return error;
  const name = (error as { name?: unknown } | null)?.name; // a DOMException's name, read with care
  if (name === 'QuotaExceededError')
    return new AgentError(
      'CONTEXT_OVERFLOW',
      `Chrome's built-in model: ${errorMessage(error)} The conversation is over its context window; shorten it.`,
      { cause: error },
    );
  return new AgentError('STREAM_ERROR', `Chrome's built-in model: ${errorMessage(error)}`, {
    cause: error,
  });
}
