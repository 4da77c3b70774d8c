import * as v from 'valibot';
import { valibotCheck } from '../types/valibot-check.js';
import type { HistoryChange } from './history-store.js';

const checkChange = valibotCheck<Omit<HistoryChange, 'remote'>>(
  v.looseObject({
    conversationId: v.string(),
    kind: v.picklist(['append', 'pending', 'rename', 'delete', 'import']),
  }),
);

/** Options for {@link HistoryChannel}. */
export interface HistoryChannelOptions {
  /** The `BroadcastChannel` name shared by every tab of one database; none: this instance only. */
  name?: string;
  /** The `BroadcastChannel` class (default: the global one, when there is one). */
  BroadcastChannel?: typeof BroadcastChannel;
}

/**
 * Tells subscribers about history changes: this instance's own at once, and other tabs' (other
 * instances on the same channel name) through a `BroadcastChannel`, with `remote: true`.
 */
export class HistoryChannel {
  readonly #listeners = new Set<(change: HistoryChange) => void>();
  readonly #channel: BroadcastChannel | undefined;

  constructor(options: HistoryChannelOptions = {}) {
    const Channel = options.BroadcastChannel ?? globalThis.BroadcastChannel;
    if (options.name === undefined || typeof Channel !== 'function') return;
    this.#channel = new Channel(options.name);
    // Node's BroadcastChannel keeps the process alive until closed; a history must not.
    (this.#channel as { unref?: () => void }).unref?.();
    this.#channel.onmessage = (event: MessageEvent<unknown>) => {
      // Another tab may run another version of this code: ignore what we do not understand.
      const checked = checkChange(event.data);
      if (checked.success) {
        const { conversationId, kind } = checked.data;
        this.#deliver({ conversationId, kind, remote: true });
      }
    };
  }

  /** Tells this instance's subscribers, then the other tabs. */
  notify(change: Omit<HistoryChange, 'remote'>): void {
    this.#deliver({ ...change, remote: false });
    try {
      this.#channel?.postMessage({ conversationId: change.conversationId, kind: change.kind });
    } catch {
      // A closed channel (after close()) throws InvalidStateError; other tabs then miss one hint.
    }
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (change: HistoryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Stops listening to and posting to other tabs. */
  close(): void {
    this.#listeners.clear();
    this.#channel?.close();
  }

  #deliver(change: HistoryChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        // One failing listener must not stop the others nor fail the write that was already made.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
