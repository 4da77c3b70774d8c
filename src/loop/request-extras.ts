import type { ChatRequest } from '../types/chat-request.js';

/**
 * `request` with `AgentOptions.requestExtras` laid over it: an extra field replaces the field
 * the options produced (`requestExtras: { temperature: 0.9 }` wins over `temperature: 0.2`), and
 * an extra set to `undefined` removes the field (`{ max_tokens: undefined }`,
 * `{ stream_options: undefined }` for a server that rejects it). `messages` and `stream` stay the
 * runtime's: the conversation and the streaming transport depend on them.
 *
 * The context manager works on the result: with `api: 'ollama'` it merges its `num_ctx` into
 * the extras' `options`, and it lowers a `max_tokens` that would overflow the window.
 */
export function withExtras(request: ChatRequest, extras: Record<string, unknown>): ChatRequest {
  const merged: Record<string, unknown> = { ...request };
  for (const [key, value] of Object.entries(extras)) {
    if (key === 'messages' || key === 'stream') continue;
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  // Safe: `model` may be replaced only by another value the caller chose, and `messages`
  // and `stream` were kept above.
  return merged as ChatRequest;
}
