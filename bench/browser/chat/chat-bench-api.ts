import type { HostileAnswer } from './hostile-answers.js';

/** What bench/browser/chat/chat-page.ts puts on `window.chatBench` for the Playwright runner. */
export interface ChatBenchApi {
  /** Streams `deltas` markdown deltas through the real transport, into `<agent-chat>` or (render false) only a Client. */
  stream(options: StreamOptions): Promise<StreamTimes>;
  /** Opens `<agent-chat>` on an IndexedDB conversation of `messages` messages. */
  open(options: { messages: number; branches?: number; huge?: HostileAnswer }): Promise<OpenTimes>;
  /** One answer with `count` tool calls, all run (automatic runs, the limit raised) and shown as cards. */
  calls(options: { count: number }): Promise<CallsTimes>;
}

export interface CallsTimes {
  /** From sending the prompt to every card on screen with its result, the answer after them. */
  totalMs: number;
  /** The longest `longtask` entry meanwhile (0 when none reached 50 ms). */
  longestTaskMs: number;
  longTasks: number;
  longestFrameGapMs: number;
  /** Calls whose tool ran, and cards shown done (checked by the runner). */
  ran: number;
  cards: number;
}

export interface StreamOptions {
  /** Markdown deltas to stream (ignored with `answer`). */
  deltas: number;
  /** Into `<agent-chat>`, or (false) only through a Client, with no element. */
  render: boolean;
  /** A hostile or huge answer instead of the markdown deltas. */
  answer?: HostileAnswer;
  /** Characters per delta of `answer` (1,024 unless said). */
  deltaSize?: number;
  /**
   * With `answer`: fetched over HTTP from the bench's server (same origin), which writes a delta
   * every `intervalMs`. Without it the bytes come from memory, as fast as the page reads them.
   */
  intervalMs?: number;
  /** Click "Show more" afterwards (when the answer collapsed) and time it too. */
  expand?: boolean;
}

export interface StreamTimes {
  /** From sending the prompt to the run's end (rendered: to the first paint after it). */
  totalMs: number;
  /** The longest `longtask` entry during the stream (0 when none reached 50 ms). */
  longestTaskMs: number;
  longTasks: number;
  /** The longest gap between two animation frames during the stream. */
  longestFrameGapMs: number;
  frames: number;
  /** What the longest animation frame spent its time on (script, forced layout, style and layout). */
  longestFrame: string;
  /** Characters of text that arrived (checked by the runner). */
  textLength: number;
  /** With `expand`, when the answer collapsed behind "Show more": from the click to its last line on screen. */
  expanded?: {
    totalMs: number;
    longestTaskMs: number;
    longTasks: number;
    longestFrameGapMs: number;
    frames: number;
    longestFrame: string;
  };
}

export interface OpenTimes {
  /** From adding the element to the first paint showing the last message. */
  firstPaintMs: number;
  /** Messages written to IndexedDB before opening (setup, not timed). */
  stored: number;
  /** Messages with earlier versions among them. */
  forks: number;
  /** The longest `longtask` entry while opening (0 when none reached 50 ms). */
  longestTaskMs: number;
  longTasks: number;
  longestFrame: string;
}

declare global {
  interface Window {
    chatBench?: ChatBenchApi;
  }
}
