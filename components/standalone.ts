/**
 * The self-contained build (`dist/agent-chat.js`): `<agent-chat>` with its dependencies in one
 * ES module for a page with no build step — `<script type="module" src=".../agent-chat.js">`.
 * The markdown renderer, the sandbox's worker and engine and the MCP client stay files beside it
 * (`dist/agent-chat/`), loaded relative to it on first use. A second inline module script
 * imports what a page needs to give the element tools, a backend or a history store. It defines
 * `<agent-model-picker>` too: put it in the chat's `header` slot for the model picker.
 * @packageDocumentation
 */
export * from './index.js';
// The model picker's button (its panel stays a file beside it, loaded when it first opens).
export { AgentModelPicker } from './model-picker/index.js';
export {
  AgentError,
  Client,
  indexedDBHistory,
  isAgentError,
  javascriptTool,
  memoryHistory,
  scriptedBackend,
  tool,
  workerTool,
} from '../src/index.js';
export { connectMcp } from './connect-mcp-on-demand.js';
