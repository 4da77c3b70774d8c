import type { RequestAttempt } from './request-attempt.js';

/**
 * Reads a response body as text under a {@link RequestAttempt}'s deadline and signal.
 * Decodes with one streaming `TextDecoder`, so a UTF-8 character split across reads
 * survives. {@link close} cancels the body when it was not read to the end: a consumer's
 * `break` or an abort must close the HTTP connection, not leave the server generating.
 */
export class BodyTextReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  readonly #decoder = new TextDecoder();
  readonly #attempt: RequestAttempt;
  #finished = false;
  #closed = false;
  /** Bytes received so far; > 0 means the stream has started and must not be replayed. */
  bytesReceived = 0;

  constructor(body: ReadableStream<Uint8Array> | null, attempt: RequestAttempt) {
    this.#reader = body?.getReader();
    this.#attempt = attempt;
    if (!this.#reader) this.#finished = true;
  }

  /** The next decoded text ('' when a read ended mid-character), or undefined at the end. */
  async read(): Promise<string | undefined> {
    if (this.#finished || !this.#reader) return undefined;
    const result = await this.#attempt.guard(this.#reader.read(), 'data from the server');
    if (result.done) {
      this.#finished = true;
      const tail = this.#decoder.decode();
      return tail === '' ? undefined : tail;
    }
    if (this.bytesReceived === 0 && result.value.byteLength > 0) this.#attempt.markStarted();
    this.bytesReceived += result.value.byteLength;
    return this.#decoder.decode(result.value, { stream: true });
  }

  /** Reads until `limit` characters or the end; for error bodies and sniffing. */
  async readUpTo(limit: number): Promise<string> {
    let text = '';
    while (text.length < limit) {
      const next = await this.read();
      if (next === undefined) break;
      text += next;
    }
    return text;
  }

  /**
   * For a stream that ended on purpose (`[DONE]`): lets the rest of the body — normally
   * only its end — arrive instead of cancelling it (in Chromium a cancel costs ~0.25 ms of
   * the page's time per response; reading to the end is what the server expects). Cancels
   * after all when more data comes, or when the end does not within `graceMs`. Never waits.
   */
  release(graceMs = 250): void {
    const reader = this.#reader;
    if (this.#closed || this.#finished || !reader) {
      this.close();
      return;
    }
    this.#closed = true;
    const cancel = () => {
      reader.cancel().catch(() => undefined);
    };
    const timer = setTimeout(cancel, graceMs);
    reader.read().then(
      (result) => {
        clearTimeout(timer);
        if (result.done !== true) cancel();
        reader.releaseLock();
      },
      () => clearTimeout(timer),
    );
  }

  /** Cancels the body if unread, and releases the lock. Idempotent, never throws. */
  close(reason?: unknown): void {
    if (this.#closed || !this.#reader) return;
    this.#closed = true;
    if (!this.#finished) {
      // Not awaited: a body whose cancel never settles must not block the caller's return.
      this.#reader.cancel(reason).catch(() => undefined);
    }
    try {
      this.#reader.releaseLock();
    } catch {
      // Older stream implementations throw when a read is pending; the cancel above ends it.
    }
  }
}
