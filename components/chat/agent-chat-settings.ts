import { LitElement } from 'lit';
import type {
  AgentOptions,
  ChatBackend,
  Client,
  HistoryStore,
  ToolSource,
} from '../../src/index.js';
import type { ChatStrings } from '../strings/chat-strings.js';
import { agentChatProperties } from './agent-chat-properties.js';

/**
 * The settings of `<agent-chat>`: its reactive properties, the attributes they are read from,
 * and their defaults. `AgentChat` extends it with the chat itself.
 */
export class AgentChatSettings extends LitElement {
  static override properties = agentChatProperties;

  /** The server's OpenAI-compatible root, e.g. `http://localhost:11434/v1`. */
  declare baseUrl: string | undefined;
  declare model: string | undefined;
  declare systemPrompt: string | undefined;
  /** Persist under this id (IndexedDB unless `history` is set); absent: memory only. */
  declare conversationId: string | undefined;
  declare maxToolIterations: number | undefined;
  /** The message box's placeholder (default: `strings['Message the agent…']`). */
  declare placeholder: string | undefined;
  /** Run tools with `execute` automatically. Default on (`auto-execute="false"` to turn off). */
  declare autoExecute: boolean;
  /** Load remote images in model output (off: they can leak the conversation). */
  declare allowRemoteImages: boolean;
  /**
   * Images pasted, dropped or attached are scaled down to this many pixels on their longer
   * side before they are sent (default 1024).
   */
  declare imageMaxSize: number | undefined;
  /**
   * Every text the element shows, in another language (or other words): each key is the English
   * text, and what is left out stays English. Dates and numbers follow the page's `lang`; a
   * right-to-left page (`dir="rtl"`) lays the chat out mirrored.
   *
   * @example
   * chat.strings = { 'Send': 'Envoyer', 'Stop': 'Arrêter', 'Show {n} earlier messages': 'Voir les {n} messages précédents' };
   */
  declare strings: Partial<ChatStrings> | undefined;
  declare sidebarOpen: boolean;
  /**
   * The tools the agent may call: an array, or a function returning the current tools, asked
   * again before every model call. Setting a new array starts a new `Client` (a run in
   * progress stops); a function lets the set change during a run — e.g. an MCP server's:
   * `chat.tools = () => [calculator, ...mcp.tools]`.
   */
  declare tools: ToolSource;
  /** A ready `Client` to use instead of building one from the attributes. */
  declare client: Client | undefined;
  /** Where conversations persist (default with `conversation-id`: `indexedDBHistory()`). */
  declare history: HistoryStore | undefined;
  /** Any `chat.completions.create` engine (WebLLM, `scriptedBackend`) instead of `base-url`. */
  declare backend: ChatBackend | undefined;
  /** More `AgentOptions` (hooks, temperature, api, apiKey, fetch…), merged under the attributes. */
  declare options: Partial<AgentOptions> | undefined;

  constructor() {
    super();
    this.autoExecute = true;
    this.allowRemoteImages = false;
    this.sidebarOpen = false;
    this.tools = [];
  }
}
