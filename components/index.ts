/**
 * open-agent/components: `<agent-chat>` (a complete agent chat) and
 * `<agent-conversations>` (a saved-conversations list). Importing this module defines
 * both elements.
 * @packageDocumentation
 */
import { AgentChat } from './agent-chat.js';
import { AgentConversations } from './agent-conversations.js';
import { AgentElapsed } from './elapsed-time.js';

export { AgentChat } from './agent-chat.js';
export { AgentConversations } from './agent-conversations.js';
export type { ConversationSelectDetail } from './agent-conversations.js';
export type { AgentChatEventMap, AgentErrorDetail, AgentRunEndDetail, AgentToolCallDetail, ConversationChangeDetail } from './chat-events.js';
export { loadMarkdown, renderMarkdown } from './markdown-loader.js';
export type { MarkdownOptions } from './render-markdown.js';

define('agent-chat', AgentChat);
define('agent-conversations', AgentConversations);
define('agent-elapsed', AgentElapsed);

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
