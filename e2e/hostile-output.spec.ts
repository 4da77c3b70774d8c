import { expect, test, type Page } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, resetServer } from './fake-server.js';

// Issue 18: hostile or huge model output, and damaged records in IndexedDB. Nothing vanishes,
// every other message stays visible, and a reload shows the same.
test.beforeEach(async () => {
  await resetServer();
});

const ANSWERS: readonly (readonly [prompt: string, answer: string, marker: string])[] = [
  ['first', 'The first answer.', 'The first answer.'],
  ['deep', `${'>'.repeat(3_000)} END-DEEP`, 'END-DEEP'],
  ['list', `${Array.from({ length: 1_000 }, (_, level) => `${'  '.repeat(level)}- item ${level}`).join('\n')}\n\nEND-LIST`, 'END-LIST'],
  ['word', `${'x'.repeat(100_000)} END-WORD`, 'END-WORD'],
  ['last', 'The last answer.', 'The last answer.'],
];

async function expectEveryAnswer(demo: DemoPage): Promise<void> {
  await expect(demo.log.locator('article.assistant')).toHaveCount(ANSWERS.length);
  for (const [index, [, , marker]] of ANSWERS.entries()) await expect(demo.assistant(index)).toContainText(marker);
  await expect(demo.log.locator('article.user .bubble')).toHaveText(ANSWERS.map(([prompt]) => prompt));
}

test('nested 3,000 deep, a 1,000-level list, a 100,000-character word: all show, live and after a reload', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const demo = new DemoPage(page);
  await demo.open({ conversation: 'e2e-hostile' });

  for (const [prompt, answer, marker] of ANSWERS) {
    await enqueue({ text: answer });
    await demo.send(prompt);
    await expect(demo.assistant()).toContainText(marker);
  }
  await demo.idle();
  await expectEveryAnswer(demo);

  await page.reload();

  await expectEveryAnswer(demo);
  expect(errors).toEqual([]);
});

/** Changes the stored records of `conversationId` in the page's IndexedDB history. */
async function damage(page: Page, conversationId: string, what: 'message' | 'record'): Promise<void> {
  await page.evaluate(
    async ({ conversationId, what }) => {
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('open-agent-history');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error('open failed'));
      });
      const store = database.transaction('history', 'readwrite').objectStore('history');
      const done = new Promise((resolve) => (store.transaction.oncomplete = resolve));
      if (what === 'record') {
        store.put({ id: conversationId, title: 42 }, ['c', conversationId]);
      } else {
        const page = store.get(['m', conversationId, 0]);
        page.onsuccess = () => {
          const messages = page.result as unknown[];
          messages[1] = { role: 'assistant', content: { not: 'text' } };
          store.put(messages, ['m', conversationId, 0]);
        };
      }
      await done;
      database.close();
    },
    { conversationId, what },
  );
}

for (const what of ['message', 'record'] as const) {
  test(`a damaged stored ${what}: the rest loads, and new messages are saved and load back`, async ({ page }) => {
    const demo = new DemoPage(page);
    const conversation = `e2e-damaged-${what}`;
    await demo.open({ conversation });
    for (const [prompt, answer] of [['one', 'Answer one.'], ['two', 'Answer two.']] as const) {
      await enqueue({ text: answer });
      await demo.send(prompt);
      await expect(demo.assistant()).toContainText(answer);
    }
    await demo.idle();

    await damage(page, conversation, what);
    await page.reload();

    const kept = what === 'message' ? ['Answer two.'] : ['Answer one.', 'Answer two.'];
    await expect(demo.log.locator('article.assistant .markdown')).toHaveText(kept);
    await expect(demo.log.locator('article.user .bubble')).toHaveText(['one', 'two']);

    await enqueue({ text: 'Answer three.' });
    await demo.send('three');
    await expect(demo.assistant()).toContainText('Answer three.');
    await demo.idle();
    await page.reload();

    await expect(demo.log.locator('article.assistant .markdown')).toHaveText([...kept, 'Answer three.']);
    await expect(demo.log.locator('article.user .bubble')).toHaveText(['one', 'two', 'three']);
  });
}
