import type { Message } from '../types/message.js';

/** What `AgentOptions.contextPolicy` may be. */
export type ContextPolicy =
  | 'drop-oldest'
  | 'error'
  | ((input: {
      messages: Message[];
      promptTokens: number;
      contextWindow: number;
    }) => Message[] | Promise<Message[]>);
