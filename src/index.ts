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

// Long conversations (issue 30): compaction by summary, and search across stored conversations.
// Both load their code on first use (summarize/compact-request.ts, search/history-index.ts).
export type { SummarizePolicy } from './context/summarize/summarize-options.js';
export type { ContextSummary } from './types/context-summary.js';
export { searchHistory } from './search/search-history.js';
export type { HistorySearchOptions, HistorySearchResult } from './search/search-history.js';
export { summariesFor } from './context/summarize/summaries-for.js';
// Model families read from text (issues 27 item 3 and 28): how a model's own markup is read.
export type { TextMarkupOptions } from './loop/text-markup-options.js';
// Trust (issue 27): damage a stored conversation's load found and repaired; bounds of one response.
export type { StorageDamage } from './history/history-store.js';
export {
  DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE,
  DEFAULT_MAX_TOOL_RESULT_CHARACTERS,
} from './loop/round-calls.js';
// In-page engines and the backend contract (issue 32): the engines load their libraries on
// first use; nothing here adds a byte of an engine to a first load.
export type { ChatChunk, WaitingChunk } from './types/chat-request.js';
export { STREAM_DONE, WAITING_CHUNK } from './types/chat-request.js';
export { webLLMBackend } from './backend/engines/web-llm-backend.js';
export type { WebLLMEngine } from './backend/engines/web-llm-backend.js';
export { wllamaBackend } from './backend/engines/wllama-backend.js';
export type { WllamaBackend, WllamaBackendOptions } from './backend/engines/wllama-backend.js';
export type { WllamaLibrary } from './backend/engines/wllama-library.js';
export { chromeAIBackend } from './backend/engines/chrome-ai-backend.js';
export type {
  ChromeAIBackend,
  ChromeAIBackendOptions,
} from './backend/engines/chrome-ai-backend.js';
export type {
  LanguageModelAPI,
  LanguageModelAvailability,
  LanguageModelMessage,
  LanguageModelSession,
} from './backend/engines/chrome-ai-types.js';
// Models on the server (issue: know your server) — the implementation loads on first call.
export { localModels } from './models/local-models.js';
export type {
  LoadOptions,
  LocalModel,
  LocalModels,
  LocalModelsOptions,
  ModelCapabilities,
  ModelRequestOptions,
  PullOptions,
  PullProgress,
  ServerIdentity,
  ServerKind,
} from './models/local-models.js';
export { checkServer } from './models/check-server.js';
export type {
  CheckServerOptions,
  CheckStatus,
  ServerCheck,
  ServerCheckId,
  ServerReport,
} from './models/check-server.js';
// Slow local servers (#25): what a transport reports before the first token, how long to wait.
export type { WaitReport } from './types/chat-request.js';
export type { TimeoutOptions } from './backend/timeouts.js';
