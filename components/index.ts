/**
 * open-agent/components: `<agent-chat>` (a complete agent chat) and
 * `<agent-conversations>` (a saved-conversations list). Importing this module defines
 * both elements.
 * @packageDocumentation
 */
import { AgentChat } from './chat/agent-chat.js';
import { AgentConversations } from './conversations/agent-conversations.js';
import type { AgentElapsed } from './tool-card/elapsed-time.js';

export { AgentChat } from './chat/agent-chat.js';
export { AgentConversations } from './conversations/agent-conversations.js';
export type { ConversationSelectDetail } from './conversations/agent-conversations.js';
export type {
  AgentChatEventMap,
  AgentErrorDetail,
  AgentRunEndDetail,
  AgentToolCallDetail,
  ConversationChangeDetail,
  ModelChangeDetail,
} from './chat/chat-events.js';
export { loadMarkdown, renderMarkdown } from './markdown/markdown-loader.js';
export type { MarkdownOptions } from './markdown/render-markdown.js';
export type { ChatStrings } from './strings/chat-strings.js';

define('agent-chat', AgentChat);
define('agent-conversations', AgentConversations);

/** Defines an element once (a second copy of the module must not throw). */
function define(name: string, element: CustomElementConstructor): void {
  if (!customElements.get(name)) customElements.define(name, element);
}

declare global {
  interface HTMLElementTagNameMap {
    'agent-chat': AgentChat;
    'agent-conversations': AgentConversations;
    'agent-elapsed': AgentElapsed;
  }
}
