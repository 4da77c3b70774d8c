import { describe, expect, it } from 'vitest';
import { esbuildFirstLoad, modulesIn } from './esbuild-first-load.js';

// Issue 30's target: search and summarising load on first use — none of their code is in the
// chat page's first load. The search box of <agent-conversations> loads when the list is first
// shown with a store (beside the list's first read), the summary dividers when a conversation
// has a summary, the summariser with the first call of a client whose contextPolicy asks for it.
// What stays is the hooks that load them (an import() and a call each).

const SEARCH_OR_SUMMARY =
  /src\/search\/|src\/context\/summarize\/|components\/summary\/|components\/conversations\/search\//;

/**
 * Texts only the search box and the dividers use. (What stays: the "Summarising earlier
 * messages…" wait line; model-step's branch that loads the summariser, named "the summarising
 * code" in its load error; the lazily opened store's addSummary, which forwards the call.)
 */
const THEIR_TEXTS = ['Search conversations', 'Summarised {n} earlier messages'];

describe('search and summarising in the chat page first load', () => {
  it('ships no module of the search box, the search index, the summariser or the dividers', async () => {
    const { metafile, first, text } = await esbuildFirstLoad('bench/entries/chat-page.ts', {
      splitting: true,
    });
    const modules = [...first].flatMap((key) => modulesIn(metafile, key));
    expect(modules.filter((id) => SEARCH_OR_SUMMARY.test(id))).toEqual([]);
    const code = [...first].map((key) => text.get(key) ?? '').join('\n');
    expect(code.length).toBeGreaterThan(10_000);
    expect(THEIR_TEXTS.filter((part) => code.includes(part))).toEqual([]);
  }, 30_000);
});
