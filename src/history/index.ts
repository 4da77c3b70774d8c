export type {
  ConversationSummary,
  HistoryChange,
  HistoryStore,
  PausedState,
  StoredConversation,
} from './history-store.js';
export { UNTITLED } from './history-store.js';
export { memoryHistory } from './memory-history.js';
export type { MemoryHistoryOptions } from './memory-history.js';
export { indexedDBHistory } from './indexeddb-history.js';
export type { IndexedDBHistoryOptions } from './indexeddb-history.js';
export {
  INTERRUPTED_TOOL_RESULT,
  pendingToolCallIds,
  repairDanglingToolCalls,
} from './repair-dangling-tool-calls.js';
export { CONVERSATION_FILE_FORMAT, CONVERSATION_FILE_VERSION } from './conversation-file-format.js';
export type { ConversationFile } from './conversation-file.js';
export { readConversationFile } from './read-conversation-file.js';
