/**
 * open-agent: a browser-first agent runtime. Every public export is named here.
 * @packageDocumentation
 */
export { AGENT_ERROR_CODES, AgentError, isAgentError, isAgentErrorCode } from './errors/index.js';
export type { AgentErrorCode, AgentErrorJSON, AgentErrorOptions } from './errors/index.js';
export type {
  AgentEvent,
  AssistantMessage,
  AssistantToolCall,
  AwaitingTools,
  ChatBackend,
  ChatRequest,
  ContextCompacted,
  ContextTrimmed,
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
  ContentPart,
  UserContent,
  UserMessage,
  Waiting,
} from './types/index.js';
export { contentText } from './types/message.js';
export { tool } from './tools/tool.js';
export type {
  JsonSchema,
  JsonSchemaToolConfig,
  NeedsApproval,
  ObjectSchema,
  SchemaToolConfig,
  Tool,
  ToolContext,
  ZodToolConfig,
} from './tools/tool.js';
export type { ToolSource } from './tools/tool-registry.js';
export type { StandardSchemaV1 } from './types/schema-check.js';
export type { InputValidation } from './tools/validate-input.js';
export { scriptedBackend } from './backend/scripted-backend.js';
export type {
  ScriptedBackend,
  ScriptedResponse,
  ScriptedToolCall,
  ScriptedTurn,
} from './backend/scripted-backend.js';
export { query } from './loop/query.js';
export type { QueryOptions } from './loop/query.js';
export { Client } from './loop/client.js';
export type { ClientStatus, QueryResult } from './loop/client.js';
export type { AgentOptions, ContextPolicy, ToolInputDelta } from './loop/agent-options.js';
export type { ResponseFormat } from './loop/response-format.js';
export type { ToolCallToRepair } from './loop/tool-input-repair.js';
export type { StreamListeners } from './loop/stream-listeners.js';
export type { ClientSnapshot } from './loop/conversation-state.js';
export type { BranchPosition, MessageBranch, MessageFork } from './types/message-fork.js';
export { combineStrategies, maxIterations, untilFinishReason } from './loop/loop-strategies.js';
export type { LoopState, LoopStrategy } from './loop/loop-strategies.js';
export type { Hooks, PostToolUseHook, PreToolUseHook, UserPromptSubmitHook } from './loop/hooks.js';
export { createFetchBackend } from './backend/fetch-backend.js';
export { webLLMBackend } from './backend/web-llm-backend.js';
export type { WebLLMEngine } from './backend/web-llm-backend.js';
export type { FetchBackendOptions } from './backend/fetch-backend.js';
export {
  CONVERSATION_FILE_FORMAT,
  CONVERSATION_FILE_VERSION,
  INTERRUPTED_TOOL_RESULT,
  UNTITLED,
  indexedDBHistory,
  memoryHistory,
  pendingToolCallIds,
  readConversationFile,
  repairDanglingToolCalls,
} from './history/index.js';
export type {
  ConversationFile,
  ConversationSummary,
  HistoryChange,
  HistoryStore,
  IndexedDBHistoryOptions,
  MemoryHistoryOptions,
  PausedState,
  StoredConversation,
} from './history/index.js';
export { defineAgent, SUBMIT_TOOL_DESCRIPTION, SUBMIT_TOOL_NAME } from './loop/define-agent.js';
export type {
  Agent,
  AgentConfig,
  AgentModelOptions,
  AgentOutput,
  AgentReflection,
  DirectOutputTool,
  JsonOutput,
  OutputObject,
  OutputToolConfig,
  ReflectiveOutputTool,
  Validator,
} from './loop/define-agent.js';
export { executeAgent } from './loop/execute-agent.js';
export type { ExecuteAgentOptions } from './loop/execute-agent.js';
export type {
  AgentMetadata,
  AgentPosition,
  ExecuteAgentError,
  ExecuteAgentResult,
  TransportErrorCode,
  ValidationFailure,
} from './loop/agent-result.js';
export type { AgentCallbacks, AgentRunState, CallbackError } from './loop/agent-callbacks.js';
export { aggregateStream } from './stream/aggregate-stream-on-demand.js';
export type { AggregateOptions, AssistantTurn, StreamEvent } from './stream/aggregate-stream.js';
export { workerTool } from './tools/worker-tool.js';
export type { WorkerToolConfig } from './tools/worker-tool.js';
export { connectWorker } from './tools/worker-connection.js';
export type {
  WorkerCallOptions,
  WorkerConnection,
  WorkerConnectionOptions,
  WorkerFactory,
  WorkerSource,
} from './tools/worker-connection.js';
export { javascriptTool } from './tools/javascript-tool.js';
export type { JavaScriptToolOptions } from './tools/javascript-tool.js';
export { SANDBOX_GLOBALS } from './tools/javascript-sandbox-protocol.js';
export type {
  JavaScriptError,
  JavaScriptResult,
  SandboxGlobal,
} from './tools/javascript-sandbox-protocol.js';
export { assertNever } from './types/events.js';
export { discoverEndpoints, LOCAL_ENDPOINTS, normalizeBaseURL } from './discovery/index.js';
export type {
  DiscoverEndpointsOptions,
  DiscoveredEndpoint,
  EndpointCandidate,
  EndpointStatus,
} from './discovery/index.js';

// Slow local servers (#25): what a transport reports before the first token, how long to wait.
export type { WaitReport } from './types/chat-request.js';
export type { TimeoutOptions } from './backend/timeouts.js';
