import { html, type TemplateResult } from 'lit';
import type { Client, ContextSummary, Message } from '../../src/index.js';
import type { Translate } from '../strings/chat-strings.js';
import type { Entry } from '../transcript/entry-types.js';

// Loaded when a conversation has summaries (contextPolicy: 'summarize'): a chat that never
// compacted ships none of this. It imports no value through the runtime's public entry (that
// would split the first load's modules into chunks of their own). A divider is set on its
// prompt's entry as the entry's `before`: the transcript's template only calls it.

/** What the "Summarised N earlier messages" divider shows. */
export interface SummaryMark {
  /** Messages it stands for. */
  covers: number;
  text: string;
}

/**
 * Marks the dividers of `client`'s summaries that apply to the branch it shows, in the entries
 * `shown` returns once they are known (`false`: the chat moved on, nothing to mark); resolves
 * with whether it marked them.
 */
export async function placeDividers(
  client: Client,
  shown: () => readonly Entry[] | false,
): Promise<boolean> {
  const history = client.history;
  // The public summariesFor, by the module it loads (as conversation-search.ts loads the search
  // index): through the public entry, esbuild would split the first load into chunks.
  const { summariesFor } = await import('../../src/context/summarize/summary-fingerprint.js');
  const summaries = summariesFor(history, client.summaries);
  const entries = shown();
  if (entries) markSummaries(entries, history, summaries);
  return entries !== false;
}

/**
 * Marks the user entry each summary of the branch shown ends before: the divider goes above
 * it, the originals stay where they are, above the divider.
 */
export function markSummaries(
  entries: readonly Entry[],
  history: readonly Message[],
  applying: readonly ContextSummary[],
): void {
  const users = entries.filter((entry) => entry.kind === 'user');
  for (const entry of users) {
    if (entry.before === undefined) continue;
    delete entry.before;
    entry.version += 1;
  }
  for (const summary of applying) {
    // The summary ends at a user message: the nth one, n the user messages it covers.
    let nth = 0;
    for (let index = 0; index < summary.covers; index += 1)
      if (history[index]?.role === 'user') nth += 1;
    const entry = users[nth];
    if (!entry) continue;
    const mark: SummaryMark = { covers: summary.covers, text: summary.text };
    entry.before = (t) => summaryDivider(mark, t);
    entry.version += 1;
  }
}

/** "Summarised N earlier messages", which opens to the summary the model was sent. */
export function summaryDivider(mark: SummaryMark, t: Translate): TemplateResult {
  return html`<style>
      .summary-divider { width: 100%; max-width: calc(var(--agent-chat-max-width, 760px) + 8px); margin: 6px auto; padding: 0 4px; color: var(--_muted); font-size: 0.85em; }
      .summary-divider > summary { display: flex; align-items: center; gap: 10px; cursor: pointer; list-style: none; padding: 4px 0; }
      .summary-divider > summary::-webkit-details-marker { display: none; }
      .summary-divider > summary::before, .summary-divider > summary::after { content: ''; flex: 1; border-top: 1px dashed var(--_border); }
      .summary-divider > summary:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
      .summary-divider .summary-text { white-space: pre-wrap; margin: 4px 0 8px; padding: 10px 12px; border-radius: var(--_radius);
        background: color-mix(in srgb, var(--_fg) 5%, transparent); color: var(--_fg); }
    </style>
    <details class="summary-divider" part="summary-divider">
      <summary part="summary-divider-label">${t('Summarised {n} earlier messages', { n: mark.covers })}</summary>
      <div class="summary-text" part="summary-text" aria-label=${t('What the model is sent in their place')}>${mark.text}</div>
    </details>`;
}
