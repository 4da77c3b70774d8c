import type { Waiting } from '../../src/index.js';
import type { Translate } from '../strings/chat-strings.js';
import type { WaitingState } from './entry-types.js';

/** What a `waiting` event shows: whole seconds (the text changes once a second), the share read. */
export function waitingState(event: Waiting): WaitingState {
  return {
    phase: event.phase,
    seconds: Math.floor(event.elapsedMs / 1000),
    ...(event.progress === undefined ? {} : { percent: Math.floor(event.progress * 100) }),
    ...(event.model === undefined ? {} : { model: event.model }),
  };
}

/**
 * The line shown in the answer's place while the model has not begun: "Loading qwen3:30b… 42 s",
 * "Reading the conversation… 45 %", "Waiting for the model… 12 s".
 */
export function waitingText(waiting: WaitingState, t: Translate): string {
  const seconds = waiting.seconds;
  switch (waiting.phase) {
    case 'loading_model':
      return waiting.model === undefined
        ? t('Loading the model… {seconds} s', { seconds })
        : t('Loading {model}… {seconds} s', { model: waiting.model, seconds });
    case 'reading_prompt':
      return waiting.percent === undefined
        ? t('Reading the conversation… {seconds} s', { seconds })
        : t('Reading the conversation… {percent} %', { percent: waiting.percent });
    case 'queued':
      return t('Waiting for another request to finish… {seconds} s', { seconds });
    case 'connecting':
      return t('Connecting… {seconds} s', { seconds });
    // contextPolicy 'summarize': the call that writes the summary, before the answer's.
    case 'summarizing':
      return t('Summarising earlier messages… {seconds} s', { seconds });
    default:
      return t('Waiting for the model… {seconds} s', { seconds });
  }
}
