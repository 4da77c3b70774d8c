import { AgentError, errorMessage, isAgentError } from '../errors/agent-error.js';
import type { HistoryStore } from '../history/history-store.js';
import type { WriteToStore } from './loop-context.js';
import type { Message } from '../types/message.js';
import type { MessageFork } from '../types/message-fork.js';
import type { AgentOptions } from './agent-options.js';
import type { ConversationState, ToolRound } from './conversation-state.js';
import { checkPaused } from './snapshot-schema.js';

/**
 * Keeps a client's conversation in its `history` store: loads it once, appends each
 * message as the loop produces it (in order, one write at a time), and stores the open
 * round while a run is paused. A storage failure is reported once (until a write
 * succeeds again); the conversation goes on in memory, and the store keeps unsaved
 * messages to write first, in order, with its next successful write.
 */
export class ConversationPersistence {
  readonly conversationId: string;
  readonly ready: Promise<void>;
  readonly #store: HistoryStore | undefined;
  readonly #report: (error: AgentError) => void;
  #writes: Promise<void> = Promise.resolve();
  #failed = false;
  #pendingStored = false;
  #skipLoad = false;
  #localWrites = 0;
  #unsubscribe: (() => void) | undefined;

  constructor(
    options: AgentOptions,
    client: {
      apply: (state: Partial<ConversationState>) => void;
      report: (error: AgentError) => void;
      isIdle: () => boolean;
    },
  ) {
    const store = options.history;
    this.#store = store;
    this.#report = client.report;
    this.conversationId = options.conversationId ?? crypto.randomUUID();
    if (!store || options.conversationId === undefined) {
      this.ready = Promise.resolve();
      return;
    }
    this.ready = this.#load(store, client.apply);
    // Another tab wrote to this conversation: take its version while we are idle, unless
    // this client wrote something itself since (its copy is then the one to keep).
    this.#unsubscribe = store.subscribe((change) => {
      if (!change.remote || change.conversationId !== this.conversationId) return;
      if (change.kind === 'rename' || change.kind === 'delete') return;
      const version = this.#localWrites;
      void this.#writes.then(() =>
        client.isIdle()
          ? this.#load(store, (state) => {
              if (version === this.#localWrites && client.isIdle()) client.apply(state);
            })
          : undefined,
      );
    });
  }

  /** For `Client.restore()`: the snapshot, not the store, is the truth. */
  skipLoad(): void {
    this.#skipLoad = true;
  }

  async #load(
    store: HistoryStore,
    apply: (state: Partial<ConversationState>) => void,
  ): Promise<void> {
    await Promise.resolve(); // let Client.restore() call skipLoad() first
    if (this.#skipLoad) return;
    try {
      const stored = await store.load(this.conversationId);
      if (!stored) return;
      if (stored.damage) {
        // Loaded only when storage is damaged: a healthy history never ships the message.
        const { damageError } = await import('./storage-damage-error.js');
        this.#report(damageError(this.conversationId, stored.damage));
      }
      const paused = stored.pending === undefined ? undefined : checkPaused(stored.pending);
      const round = paused?.success === true ? paused.data.round : null;
      this.#pendingStored = round !== null;
      apply({
        // The store repaired dangling calls, except those of the open round listed in `pending`.
        messages: stored.messages,
        forks: stored.forks ?? [],
        summaries: stored.summaries ?? [],
        round,
        ...(paused?.success === true
          ? { iterationCount: paused.data.iterationCount, finishReason: paused.data.finishReason }
          : {}),
      });
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Queues the messages for storage, after every earlier write. */
  append(messages: readonly Message[]): void {
    const store = this.#store;
    if (!store || messages.length === 0) return;
    this.#localWrites += 1;
    const copy = structuredClone([...messages]);
    this.#enqueue(() => store.append(this.conversationId, copy));
  }

  /**
   * Queues another write to the store, after every earlier one (a summary beside the messages
   * it covers: that code loads with contextPolicy 'summarize', and keeps none of it here).
   */
  write(action: WriteToStore): void {
    const store = this.#store;
    if (store) this.#enqueue(() => action(store, this.conversationId));
  }

  /** Stores (or clears) the open round; resolves once every queued write is done. */
  savePending(
    round: ToolRound | null,
    state?: Pick<ConversationState, 'iterationCount' | 'finishReason'>,
  ): Promise<void> {
    const store = this.#store;
    if (store && (round !== null || this.#pendingStored)) {
      // `pending` lists every call of the open round: the store must not mark them interrupted.
      const pending =
        round === null
          ? undefined
          : structuredClone({
              pending: round.calls.map(({ toolUseId, name }) => ({ toolUseId, name })),
              round,
              iterationCount: state?.iterationCount ?? 0,
              finishReason: state?.finishReason ?? null,
            });
      this.#pendingStored = round !== null;
      this.#enqueue(() => store.setPending(this.conversationId, pending));
    }
    return this.#writes;
  }

  /**
   * Stores `messages` and `forks` in place of the conversation (after a branch or a switch),
   * keeping its title and dates and clearing a paused run; resolves once every queued write is
   * done. Costs a rewrite of the conversation: a user's edit, not the loop's path.
   */
  replace(messages: readonly Message[], forks: readonly MessageFork[] = []): Promise<void> {
    const store = this.#store;
    if (store) {
      this.#localWrites += 1;
      this.#pendingStored = false;
      const id = this.conversationId;
      const copy = structuredClone({ messages: [...messages], forks: [...forks] });
      this.#enqueue(async () => {
        if (copy.messages.length === 0 && copy.forks.length === 0) return store.delete(id);
        const {
          pending: _pending,
          forks: _forks,
          ...file
        } = JSON.parse(await store.exportConversation(id)) as Record<string, unknown>;
        const next = {
          ...file,
          messages: copy.messages,
          ...(copy.forks.length > 0 ? { forks: copy.forks } : {}),
        };
        await store.importConversation(JSON.stringify(next), { id });
      });
    }
    return this.#writes;
  }

  /** Waits for queued writes. */
  async close(): Promise<void> {
    this.#unsubscribe?.();
    await this.#writes;
  }

  #enqueue(write: () => Promise<void>): void {
    this.#writes = this.#writes.then(async () => {
      try {
        await write();
        this.#failed = false;
      } catch (error) {
        this.#fail(error);
      }
    });
  }

  #fail(error: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#report(
      isAgentError(error, 'STORAGE_FAILED')
        ? error
        : new AgentError(
            'STORAGE_FAILED',
            `Saving the conversation failed: ${errorMessage(error)}; it continues in memory`,
            { cause: error },
          ),
    );
  }
}
