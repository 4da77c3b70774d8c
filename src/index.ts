/**
 * open-agent: a browser-first agent runtime. Every public export is named here.
 * @packageDocumentation
 */
export {
  AGENT_ERROR_CODES,
  AgentError,
  isAgentError,
  isAgentErrorCode,
} from './errors/index.js';
export type { AgentErrorCode, AgentErrorJSON, AgentErrorOptions } from './errors/index.js';
export type {
  AgentEvent,
  AssistantMessage,
  AssistantToolCall,
  AwaitingTools,
  ChatBackend,
  ChatRequest,
  Done,
  DoneStatus,
  FinishReason,
  Message,
  PendingToolCall,
  ReasoningBlock,
  StepEnd,
  SystemMessage,
  TextBlock,
  ToolChoice,
  ToolDefinition,
  ToolMessage,
  ToolResultBlock,
  ToolUseBlock,
  ToolUseError,
  Usage,
  UserMessage,
} from './types/index.js';
