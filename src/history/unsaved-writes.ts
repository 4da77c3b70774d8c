import type { Message } from '../types/message.js';
import type { PausedState } from './history-store.js';

/** What one write adds to a conversation: messages, and maybe a new paused state. */
export interface UnsavedWrite {
  messages: Message[];
  /** Present when the write sets (or, with `value: undefined`, clears) the paused state. */
  pending?: { value: PausedState | undefined };
}

/**
 * Writes that storage refused, per conversation, kept in memory in order. The next write of the
 * conversation stores them first in the same transaction, so what is stored never has a gap
 * (a lost assistant turn would leave its tool results without their call).
 */
export class UnsavedWrites {
  readonly #writes = new Map<string, UnsavedWrite>();

  /** The kept write of a conversation, if any. */
  get(conversationId: string): UnsavedWrite | undefined {
    return this.#writes.get(conversationId);
  }

  /** The kept write followed by `write`, as one write. */
  merge(conversationId: string, write: UnsavedWrite): UnsavedWrite {
    const kept = this.#writes.get(conversationId);
    if (!kept) return write;
    const pending = write.pending ?? kept.pending;
    return {
      messages: [...kept.messages, ...write.messages],
      ...(pending ? { pending } : {}),
    };
  }

  /** Keeps a write that storage refused (replacing the kept one it was merged from). */
  keep(conversationId: string, write: UnsavedWrite): void {
    this.#writes.set(conversationId, write);
  }

  /** Forgets a conversation's kept write; `true` if there was one. */
  clear(conversationId: string): boolean {
    return this.#writes.delete(conversationId);
  }
}
