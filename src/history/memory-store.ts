import { copyId, serializeConversation, type ConversationFile } from './conversation-file.js';
import { checkedTitle, titleFromMessages } from './conversation-title.js';
import { unknownConversation } from './history-errors.js';
import { HistoryChannel } from './history-channel.js';
import type { ConversationSummary, HistoryStore, StoredConversation } from './history-store.js';
import { checkedMessages, checkedPending } from './message-schema.js';
import { newestFirst } from './newest-first.js';
import type { StoreKit } from './store-kit.js';
import type { MemoryHistoryOptions } from './memory-history.js';

/**
 * What an exported file holds, without its header. `title` is `''` until the first user
 * message or a rename gives one.
 */
type MemoryConversation = Omit<ConversationFile, 'format' | 'version'>;

/**
 * The memory store's working part, loaded by `import()` on the store's first use (see
 * {@link memoryHistory}, which documents its behaviour).
 */
export function openMemoryHistory(
  options: MemoryHistoryOptions,
  kit: StoreKit,
): HistoryStore & { close(): void } {
  const { UNTITLED, pendingToolCallIds, repairDanglingToolCalls } = kit;
  const now = options.now ?? Date.now;
  const conversations = new Map<string, MemoryConversation>();
  const channel = new HistoryChannel();

  const create = (id: string): MemoryConversation => {
    const time = now();
    const conversation: MemoryConversation = {
      id,
      title: '',
      createdAt: time,
      updatedAt: time,
      messages: [],
    };
    conversations.set(id, conversation);
    return conversation;
  };

  const snapshot = (conversation: MemoryConversation): StoredConversation => {
    const messages = structuredClone(conversation.messages);
    const pending = conversation.pending && structuredClone(conversation.pending);
    return {
      id: conversation.id,
      title: conversation.title || UNTITLED,
      messages: repairDanglingToolCalls(messages, pendingToolCallIds(pending)),
      ...(pending === undefined ? {} : { pending }),
      ...(conversation.forks === undefined ? {} : { forks: structuredClone(conversation.forks) }),
      ...(conversation.summaries === undefined
        ? {}
        : { summaries: structuredClone(conversation.summaries) }),
      createdAt: conversation.createdAt,
      updatedAt: conversation.updatedAt,
    };
  };

  const existing = (id: string): MemoryConversation => {
    const conversation = conversations.get(id);
    if (!conversation) throw unknownConversation(id);
    return conversation;
  };

  return {
    load: (conversationId) =>
      settle(() => {
        const conversation = conversations.get(conversationId);
        return conversation && snapshot(conversation);
      }),

    append: (conversationId, messages) =>
      settle(() => {
        const checked = checkedMessages(messages);
        if (checked.length === 0) return;
        const conversation = conversations.get(conversationId) ?? create(conversationId);
        conversation.messages.push(...checked);
        conversation.title ||= titleFromMessages(checked, kit) ?? '';
        conversation.updatedAt = now();
        channel.notify({ conversationId, kind: 'append' });
      }),

    setPending: (conversationId, pending) =>
      settle(() => {
        const value = checkedPending(pending);
        const conversation = conversations.get(conversationId) ?? create(conversationId);
        if (value === undefined) delete conversation.pending;
        else conversation.pending = value;
        conversation.updatedAt = now();
        channel.notify({ conversationId, kind: 'pending' });
      }),

    addSummary: async (conversationId, summary) => {
      const { checkedSummary } = await import('./summary-check.js');
      return settle(() => {
        const checked = checkedSummary(summary);
        const conversation = existing(conversationId);
        conversation.summaries = [...(conversation.summaries ?? []), checked];
        channel.notify({ conversationId, kind: 'summary' });
      });
    },

    list: () =>
      settle(() =>
        [...conversations.values()]
          .map((conversation): ConversationSummary => ({
            id: conversation.id,
            title: conversation.title || UNTITLED,
            createdAt: conversation.createdAt,
            updatedAt: conversation.updatedAt,
            messageCount: conversation.messages.length,
          }))
          .sort(newestFirst),
      ),

    rename: (conversationId, title) =>
      settle(() => {
        const conversation = existing(conversationId);
        conversation.title = checkedTitle(title);
        conversation.updatedAt = now();
        channel.notify({ conversationId, kind: 'rename' });
      }),

    delete: (conversationId) =>
      settle(() => {
        if (conversations.delete(conversationId))
          channel.notify({ conversationId, kind: 'delete' });
      }),

    exportConversation: (conversationId) =>
      settle(() => serializeConversation(snapshot(existing(conversationId)))),

    importConversation: async (json, importOptions = {}) => {
      const { readConversationFile } = await import('./conversation-file-forks.js');
      const file = await readConversationFile(json);
      return settle(() => {
        const id = importOptions.id ?? (conversations.has(file.id) ? copyId(file.id) : file.id);
        conversations.set(id, {
          id,
          title: file.title === UNTITLED ? '' : file.title,
          createdAt: file.createdAt,
          updatedAt: file.updatedAt,
          messages: file.messages,
          ...(file.pending === undefined ? {} : { pending: file.pending }),
          ...(file.forks === undefined ? {} : { forks: file.forks }),
          ...(file.summaries === undefined ? {} : { summaries: file.summaries }),
        });
        channel.notify({ conversationId: id, kind: 'import' });
        return id;
      });
    },

    subscribe: (listener) => channel.subscribe(listener),
    close: () => channel.close(),
  };
}

/** Runs `operation` now; its result or throw as a promise (the store's methods are async). */
function settle<T>(operation: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(operation()));
}
