import type { ChatBackend, ChatRequest } from '../types/chat-request.js';
import type { ModelCapabilities, ServerKind } from './local-models.js';
import type { ChecksRuntime } from './models-runtime.js';

/** What every generation check needs, and its count of generations and output tokens. */
export interface ProbeContext {
  runtime: ChecksRuntime;
  baseURL: string;
  model: string;
  kind: ServerKind;
  capabilities: ModelCapabilities;
  fetch: typeof globalThis.fetch | undefined;
  apiKey: string | undefined;
  signal: AbortSignal | undefined;
  /** Counts a generation of at most `maxTokens` output tokens. */
  spend(maxTokens: number): void;
}

/** The transport the checks use: no retries (a check reports what one request met), 60 s per read. */
export function probeBackend(context: ProbeContext): ChatBackend {
  return context.runtime.createFetchBackend({
    baseURL: context.baseURL,
    maxRetries: 0,
    timeout: 60_000,
    ...(context.fetch ? { fetch: context.fetch } : {}),
    ...(context.apiKey ? { apiKey: context.apiKey } : {}),
  });
}

/** Sends one streamed request and returns its chunks (wire data, unread). Throws the transport's `AgentError`. */
export async function streamChunks(
  context: ProbeContext,
  request: { messages: ChatRequest['messages']; max_tokens: number; [extra: string]: unknown },
): Promise<unknown[]> {
  context.spend(request.max_tokens);
  const chunks: unknown[] = [];
  const source = await probeBackend(context).chat.completions.create(
    { model: context.model, stream: true, ...request },
    context.signal ? { signal: context.signal } : {},
  );
  for await (const chunk of source) chunks.push(chunk);
  return chunks;
}

/** A backend that hands every chunk of `inner` on and keeps a copy in `seen`. */
export function recordingBackend(inner: ChatBackend, seen: unknown[]): ChatBackend {
  return {
    chat: {
      completions: {
        create: async (request, options) => {
          const source = await inner.chat.completions.create(request, options);
          return (async function* () {
            for await (const chunk of source) {
              seen.push(chunk);
              yield chunk;
            }
          })();
        },
      },
    },
  };
}
