import type { PropertyDeclarations } from 'lit';

/**
 * How `<agent-chat>`'s attributes map to its properties (Lit's `static properties`): names,
 * types, reflection and the `auto-execute` converter. What each property means is documented
 * on `AgentChatSettings`.
 */

/** Properties that change the Client: a change builds a new one. */
export const CLIENT_SETTINGS = [
  'baseUrl',
  'model',
  'systemPrompt',
  'conversationId',
  'maxToolIterations',
  'autoExecute',
  'tools',
  'client',
  'history',
  'backend',
  'options',
] as const;

/** `auto-execute` is on unless the attribute says `false`, `off` or `0`. */
const onOff = {
  fromAttribute: (value: string | null) =>
    value === null || !['false', 'off', '0'].includes(value.trim().toLowerCase()),
  toAttribute: (value: boolean) => (value ? 'true' : 'false'),
};

/** `<agent-chat>`'s reactive properties and the attributes they are read from. */
export const agentChatProperties = {
  baseUrl: { attribute: 'base-url' },
  model: {},
  systemPrompt: { attribute: 'system-prompt' },
  conversationId: { attribute: 'conversation-id', reflect: true },
  maxToolIterations: { attribute: 'max-tool-iterations', type: Number },
  placeholder: {},
  autoExecute: { attribute: 'auto-execute', converter: onOff },
  allowRemoteImages: { attribute: 'allow-remote-images', type: Boolean },
  imageMaxSize: { attribute: 'image-max-size', type: Number },
  strings: { attribute: false },
  sidebarOpen: { attribute: 'sidebar-open', type: Boolean, reflect: true },
  tools: { attribute: false },
  client: { attribute: false },
  history: { attribute: false },
  backend: { attribute: false },
  options: { attribute: false },
} satisfies PropertyDeclarations;
