export type {
  AssistantMessage,
  AssistantToolCall,
  ContentPart,
  Message,
  SystemMessage,
  ToolMessage,
  UserContent,
  UserMessage,
} from './message.js';
export { contentText } from './message.js';
export type {
  AgentEvent,
  AwaitingTools,
  ContextCompacted,
  ContextTrimmed,
  Done,
  DoneStatus,
  FinishReason,
  PendingToolCall,
  ReasoningBlock,
  StepEnd,
  TextBlock,
  ToolResultBlock,
  ToolUseBlock,
  ToolUseError,
  Waiting,
} from './events.js';
export { assertNever } from './events.js';
export type { Usage } from './usage.js';
export { addUsage, emptyUsage, estimateTokens } from './usage.js';
export type {
  ChatBackend,
  ChatChunk,
  ChatRequest,
  ToolChoice,
  ToolDefinition,
  WaitingChunk,
} from './chat-request.js';
export { STREAM_DONE, WAITING_CHUNK } from './chat-request.js';
