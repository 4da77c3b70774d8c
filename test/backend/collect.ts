import type { ChatBackend, ChatRequest } from '../../src/types/chat-request.js';

/** A minimal streaming request. */
export function chatRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: 'test-model',
    messages: [{ role: 'user', content: 'Hi' }],
    stream: true,
    stream_options: { include_usage: true },
    ...overrides,
  };
}

/** Everything a backend yields, and what it threw (if anything). */
export async function collect(
  backend: ChatBackend,
  request: ChatRequest = chatRequest(),
  signal?: AbortSignal,
): Promise<{ chunks: unknown[]; error: unknown }> {
  const chunks: unknown[] = [];
  try {
    const iterable = await backend.chat.completions.create(request, signal ? { signal } : {});
    for await (const chunk of iterable) chunks.push(chunk);
    return { chunks, error: undefined };
  } catch (error) {
    return { chunks, error };
  }
}
