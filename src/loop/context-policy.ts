import type { Message } from '../types/message.js';
import type { SummarizePolicy } from '../context/summarize/summarize-options.js';

/** What `AgentOptions.contextPolicy` may be. */
export type ContextPolicy =
  | 'drop-oldest'
  | 'error'
  | 'summarize'
  | SummarizePolicy
  | ((input: {
      messages: Message[];
      promptTokens: number;
      contextWindow: number;
    }) => Message[] | Promise<Message[]>);
