/**
 * Turns a response body's decoded text into chat-completion chunks, synchronously, one
 * body read at a time: the SSE reader, the JSON/HTML sniffing OpenAI reader and the
 * Ollama NDJSON reader all have this shape, so the transport awaits only the network.
 */
export interface BodyChunkReader {
  /**
   * Appends to `out` the chunks `text` completes (JSON-parsed, not interpreted).
   * @throws AgentError for a server error or an unreadable body — after appending the
   *   chunks before it, which the caller still hands out first.
   */
  push(text: string, out: unknown[]): void;
  /** The body ended: appends what the end completes, or throws like {@link push}. */
  end(out: unknown[]): void;
  /** True once the stream ended on purpose (`[DONE]`, Ollama's `done`): read no further. */
  readonly finished: boolean;
}
