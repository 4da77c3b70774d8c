import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, recorded, resetServer } from './fake-server.js';

test.beforeEach(async () => {
  await resetServer();
});

test('Regenerate and ↑-edit send only the branch before the prompt, and survive a reload', async ({
  page,
}) => {
  const demo = new DemoPage(page);
  await demo.open({ conversation: 'e2e-edit' });
  await enqueue(
    { text: 'First answer.' },
    { text: 'Second answer.' },
    { text: 'Again, second.' },
    { text: 'Edited answer.' },
  );
  await demo.send('one');
  await expect(demo.assistant()).toContainText('First answer.');
  await demo.idle();
  await demo.send('two');
  await expect(demo.assistant()).toContainText('Second answer.');
  await demo.idle();

  await demo.chat.locator('[part~="regenerate-button"]').click();
  await expect(demo.assistant()).toContainText('Again, second.');
  await demo.idle();
  await expect(demo.log.locator('article.assistant')).toHaveCount(2);

  // ↑ in the empty box: the last prompt comes back to edit; Enter resends it in its place.
  await demo.input.focus();
  await demo.input.press('ArrowUp');
  await expect(demo.input).toHaveValue('two');
  await expect(demo.chat.locator('[part~="send-button"]')).toHaveText('Resend');
  await demo.input.fill('two, edited');
  await demo.input.press('Enter');
  await expect(demo.assistant()).toContainText('Edited answer.');
  await demo.idle();

  const { requests } = await recorded();
  expect(requests).toHaveLength(4);
  const users = (index: number) =>
    (requests[index] as { messages: { role: string; content: string }[] }).messages
      .filter((message) => message.role !== 'system')
      .map((message) => message.content);
  expect(users(2)).toEqual(['one', 'First answer.', 'two']);
  expect(users(3)).toEqual(['one', 'First answer.', 'two, edited']);

  await page.reload();
  await expect(demo.log.locator('article.user .bubble')).toHaveText(['one', 'two, edited']);
  await expect(demo.log.locator('article.assistant .markdown')).toHaveText([
    'First answer.',
    'Edited answer.',
  ]);
});

test('Escape stops a running answer', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open();
  await enqueue({ text: Array.from({ length: 80 }, (_, index) => `slow${index} `), delayMs: 60 });
  await demo.send('Say a lot');
  await expect(demo.assistant()).toContainText('slow3');
  await demo.input.press('Escape');
  await demo.idle();
  await expect(demo.assistant()).toContainText('Stopped.');
});
