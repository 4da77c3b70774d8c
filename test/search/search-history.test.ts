import { describe, expect, it } from 'vitest';
import { searchHistory } from '../../src/search/search-history.js';
import { HistoryIndex } from '../../src/search/history-index.js';
import { memoryHistory } from '../../src/history/memory-history.js';
import { snippetOf } from '../../src/search/search-snippet.js';
import { generatedStore, PLANTED } from './generated-store.js';

const marked = (hit: { snippet: string; ranges: [number, number][] }): string[] =>
  hit.ranges.map(([start, end]) => hit.snippet.slice(start, end));

describe('searchHistory over 1,000 conversations × 100 messages', () => {
  it('finds planted phrases accent- and case-insensitively, at their message, with highlighted ranges', async () => {
    const store = await generatedStore(1000, 100);
    const index = new HistoryIndex(store);
    await index.ready;
    expect(index.stats).toMatchObject({ conversations: 1000, messages: 100_000 });
    // Indexing yielded to the page between slices (the figures themselves are the bench's).
    expect(index.stats.longestSliceMs).toBeLessThan(index.stats.buildMs);

    const [hit, ...others] = await index.search('creme brulee');
    expect(others).toEqual([]);
    expect(hit).toMatchObject({
      conversationId: `c${PLANTED.accented.conversation}`,
      messageIndex: PLANTED.accented.message,
      role: 'user',
    });
    expect(marked(hit as NonNullable<typeof hit>)).toEqual(['Crème', 'Brûlée']);
    expect(marked((await index.search('ÅNGSTRÖM'))[0] as NonNullable<typeof hit>)).toEqual([
      'Ångström',
    ]);
    // A prefix of the last word; every word must match.
    const rare = await index.search('beetle zyzz');
    expect(rare.map((result) => [result.conversationId, result.messageIndex])).toEqual([
      [`c${PLANTED.rare.conversation}`, PLANTED.rare.message],
    ]);
    expect(await index.search('zyzzyva kitchen')).toEqual([]);
    // A common word: the limit holds, best first.
    const common = await index.search('garden', { limit: 7 });
    expect(common).toHaveLength(7);
    // Newest first: from a most recently updated conversation, its last messages first.
    const newest = Math.max(...(await store.list()).map((item) => item.updatedAt));
    const first = (await store.list()).find((item) => item.id === common[0]?.conversationId);
    expect(first?.updatedAt).toBe(newest);
    const mine = common
      .filter((result) => result.conversationId === first?.id)
      .map((result) => result.messageIndex);
    expect(mine).toEqual([...mine].sort((a, b) => b - a));
    for (const result of common)
      expect(marked(result).every((text) => text.toLowerCase() === 'garden')).toBe(true);
  }, 120_000);
});

describe('searchHistory keeps up with the store', () => {
  it('indexes appended messages only, and forgets deleted and rewritten conversations', async () => {
    const store = memoryHistory();
    await store.append('a', [{ role: 'user', content: 'Plan a trip to Zürich' }]);
    // The title (taken from the first prompt) matches too, as message -1.
    expect((await searchHistory(store, 'zurich')).map((hit) => hit.messageIndex).sort()).toEqual([
      -1, 0,
    ]);
    const index = new HistoryIndex(store);
    await index.ready;
    expect(index.stats.messages).toBe(1);
    await store.append('a', [{ role: 'assistant', content: 'Zürich has a lake.' }]);
    expect((await index.search('zurich')).map((hit) => hit.messageIndex).sort()).toEqual([
      -1, 0, 1,
    ]);
    expect(index.stats.messages).toBe(2); // the first message was not indexed again
    // The title is searchable too (messageIndex -1).
    await store.rename('a', 'Swiss holiday');
    expect((await index.search('swiss')).map((hit) => hit.messageIndex)).toEqual([-1]);
    await store.delete('a');
    expect(await index.search('zurich')).toEqual([]);
    expect(await searchHistory(store, 'zurich')).toEqual([]);
  });

  it('snippets cut long text around the first match and mark every match in it', () => {
    const text = `${'word '.repeat(100)}the Café is open; café au lait ${'more '.repeat(100)}`;
    const { snippet, ranges } = snippetOf(text, ['cafe'], 80);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(ranges.map(([start, end]) => snippet.slice(start, end))).toEqual(['Café', 'café']);
  });
});
