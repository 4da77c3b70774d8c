/**
 * The self-contained build (`dist/agent-chat.js`): `<agent-chat>` with its dependencies in one
 * ES module for a page with no build step — `<script type="module" src=".../agent-chat.js">`.
 * The markdown renderer stays a lazily loaded chunk beside it. A second inline module script
 * imports the few runtime parts a page needs to give the element tools or a backend.
 * @packageDocumentation
 */
export * from './index.js';
export { AgentError, Client, indexedDBHistory, isAgentError, memoryHistory, scriptedBackend, tool } from '../src/index.js';
