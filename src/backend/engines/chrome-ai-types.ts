/**
 * The part of Chrome's Prompt API (`LanguageModel`, https://webmachinelearning.github.io/prompt-api/)
 * that `chromeAIBackend` uses, written out: TypeScript's DOM library does not have it yet.
 */
export interface LanguageModelAPI {
  availability(options?: Record<string, unknown>): Promise<LanguageModelAvailability>;
  create(options?: LanguageModelCreateOptions): Promise<LanguageModelSession>;
}

/** What `LanguageModel.availability()` answers. */
export type LanguageModelAvailability =
  'unavailable' | 'downloadable' | 'downloading' | 'available';

/** One message of a prompt (`system` only first, in `initialPrompts`). */
export interface LanguageModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LanguageModelCreateOptions {
  initialPrompts?: LanguageModelMessage[];
  /** Called with a monitor that fires `downloadprogress` events (`loaded`: 0..1) while the model downloads. */
  monitor?: (monitor: EventTarget) => void;
  signal?: AbortSignal;
  temperature?: number;
  topK?: number;
}

export interface LanguageModelSession {
  /** Tokens the session can hold (older Chrome: `inputQuota`). */
  readonly contextWindow?: number;
  readonly inputQuota?: number;
  promptStreaming(
    input: string | LanguageModelMessage[],
    options?: {
      signal?: AbortSignal;
      responseConstraint?: unknown;
      omitResponseConstraintInput?: boolean;
    },
  ): ReadableStream<string>;
  destroy(): void;
}
