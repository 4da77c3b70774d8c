import type { ChatBackend } from '../../types/chat-request.js';

/**
 * `contextPolicy: { type: 'summarize', … }`: when a request would pass `threshold`, the
 * oldest turns are summarised by one model call and requests send the summary in their
 * place (see `AgentOptions.contextPolicy`). `'summarize'` alone takes every default.
 *
 * @example
 * const client = new Client({
 *   model: 'qwen3:8b',
 *   baseURL: 'http://localhost:11434/v1',
 *   contextPolicy: { type: 'summarize', threshold: 0.7, keepRecent: 0.3, model: 'qwen3:1.7b' },
 * });
 */
export interface SummarizePolicy {
  type: 'summarize';
  /**
   * Compact when the next request would take more than this fraction of the room the
   * window leaves for the prompt (the window less the room kept for the answer).
   * Default 0.75.
   */
  threshold?: number;
  /**
   * The newest turns kept whole, word for word: up to this fraction of that room (at least
   * the current turn, whatever its size). Default 0.3.
   */
  keepRecent?: number;
  /** The model that writes the summary. Default: the conversation's own. */
  model?: string;
  /** Where the summary is written (e.g. a smaller local model's server). Default: the conversation's backend. */
  backend?: ChatBackend;
  /**
   * Milliseconds the summary call may take. Past it, or when it fails, the oldest turns are
   * left out instead (`drop-oldest`, with `context_trimmed`) and `onError` says why. Default
   * 120,000 (a local server reading a long prompt is slow).
   */
  timeoutMs?: number;
  /** Instructions for the summary (its system message). Default: {@link DEFAULT_SUMMARY_INSTRUCTIONS}. */
  instructions?: string;
}

/** The instructions the summary call is sent by default. */
export const DEFAULT_SUMMARY_INSTRUCTIONS =
  'You summarise conversations between a user and an AI assistant so the assistant can continue ' +
  'them without the original messages. Keep every fact, name, number, decision, open question ' +
  'and tool result that may matter later; drop greetings and repetition. Write plain prose in ' +
  'the language of the conversation. Answer with the summary only.';

/** A {@link SummarizePolicy} with every default filled in. */
export type SummarizeSettings = Required<Omit<SummarizePolicy, 'model' | 'backend'>> &
  Pick<SummarizePolicy, 'model' | 'backend'>;

/** The settings of `'summarize'` or a {@link SummarizePolicy}; fractions clamped to (0, 1]. */
export function summarizeSettings(policy: 'summarize' | SummarizePolicy): SummarizeSettings {
  const given: Partial<SummarizePolicy> = policy === 'summarize' ? {} : policy;
  const threshold = fraction(given.threshold, 0.75);
  return {
    type: 'summarize',
    threshold,
    keepRecent: Math.min(fraction(given.keepRecent, 0.3), threshold),
    timeoutMs: given.timeoutMs ?? 120_000,
    instructions: given.instructions ?? DEFAULT_SUMMARY_INSTRUCTIONS,
    ...(given.model === undefined ? {} : { model: given.model }),
    ...(given.backend === undefined ? {} : { backend: given.backend }),
  };
}

function fraction(value: number | undefined, fallback: number): number {
  return value === undefined || !(value > 0) ? fallback : Math.min(value, 1);
}
