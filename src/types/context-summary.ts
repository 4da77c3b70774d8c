/**
 * A summary that stands in for the oldest messages of a conversation in requests
 * (`contextPolicy: 'summarize'`), stored beside the messages it summarises: history keeps
 * every original. It belongs to the branch it summarises: `fingerprint` is taken over the
 * messages it covers, so after an edit or a regenerated answer before `covers` it no longer
 * applies (and applies again when that branch is shown again).
 */
export interface ContextSummary {
  /** The summary as the model wrote it. */
  text: string;
  /** It stands for `messages[0 .. covers)` of the conversation (a turn boundary). */
  covers: number;
  /** A hash of those messages (their roles, text and tool calls), as `summaryFingerprint` makes it. */
  fingerprint: string;
  /** When it was written (ms since the epoch). */
  createdAt: number;
  /** The model that wrote it. */
  model?: string;
}
