import type {
  AgentOptions,
  ChatBackend,
  Client,
  HistoryStore,
  ToolSource,
} from '../../src/index.js';
import type { SessionHost } from './session-host.js';

/** The settings of `<agent-chat>` the session reads (live: each read is the current value). */
export interface ChatSettings extends Pick<HTMLElement, 'dispatchEvent'> {
  readonly baseUrl: string | undefined;
  readonly model: string | undefined;
  readonly systemPrompt: string | undefined;
  readonly conversationId: string | undefined;
  readonly maxToolIterations: number | undefined;
  readonly autoExecute: boolean;
  readonly tools: ToolSource;
  readonly client: Client | undefined;
  readonly history: HistoryStore | undefined;
  readonly backend: ChatBackend | undefined;
  readonly options: Partial<AgentOptions> | undefined;
}

/**
 * The {@link SessionHost} of an `<agent-chat>`: the session reads the element's live settings
 * through it, and its events are dispatched on the element (bubbling, composed;
 * `agent-tool-call` cancelable).
 */
export function chatSessionHost(
  element: ChatSettings,
  port: Pick<SessionHost, 'markdownOptions' | 'changed' | 'loaded'>,
): SessionHost {
  return {
    ...port,
    get client() {
      return element.client;
    },
    get history() {
      return element.history;
    },
    get conversationId() {
      return element.conversationId;
    },
    clientOptions: () => clientOptions(element),
    emit: (type: string, detail: unknown) =>
      element.dispatchEvent(
        new CustomEvent(type, {
          detail,
          bubbles: true,
          composed: true,
          cancelable: type === 'agent-tool-call',
        }),
      ),
  };
}

/** The `AgentOptions` the element's settings make: `options` merged under the attributes. */
function clientOptions(settings: ChatSettings): AgentOptions {
  return {
    ...settings.options,
    model: settings.model ?? settings.options?.model ?? '',
    ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
    ...(settings.backend ? { backend: settings.backend } : {}),
    ...(settings.systemPrompt ? { systemPrompt: settings.systemPrompt } : {}),
    tools: settings.tools,
    autoExecuteTools: settings.autoExecute,
    ...(settings.maxToolIterations === undefined || Number.isNaN(settings.maxToolIterations)
      ? {}
      : { maxToolIterations: settings.maxToolIterations }),
  };
}
