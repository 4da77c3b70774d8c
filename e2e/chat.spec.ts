import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, recorded, resetServer } from './fake-server.js';

const words = (count: number, prefix = 'word') =>
  Array.from({ length: count }, (_, index) => `${prefix}${index + 1} `);

test.beforeEach(async () => {
  await resetServer();
});

test('a prompt streams the answer in incrementally', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open();
  await enqueue({ text: [...words(30), '**done**'], delayMs: 40 });

  await demo.send('Tell me thirty words');

  const answer = demo.assistant();
  await expect(answer).toContainText('word3');
  // Mid-stream: part of the text is on screen, the end is not, and Stop is offered.
  expect(await answer.textContent()).not.toContain('word30');
  await expect(demo.chat.locator('[part~="stop-button"]')).toBeVisible();
  await expect(answer.locator('strong')).toHaveText('done');
  await demo.idle();
  const { requests } = await recorded();
  expect(requests).toHaveLength(1);
  expect(requests[0]).toMatchObject({
    model: 'fake-model',
    messages: [{ role: 'system' }, { role: 'user', content: 'Tell me thirty words' }],
  });
});

test('Stop keeps the partial answer and the next prompt works', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open();
  await enqueue({ text: words(80, 'slow'), delayMs: 60 }, { text: 'Second answer.', delayMs: 5 });

  await demo.send('Say a lot');
  await expect(demo.assistant()).toContainText('slow4');
  await demo.chat.locator('[part~="stop-button"]').click();

  await demo.idle();
  const partial = await demo.assistant().locator('.markdown').textContent();
  expect(partial).toContain('slow4');
  expect(partial).not.toContain('slow80');
  await expect(demo.assistant()).toContainText('Stopped.');

  await demo.send('Go on');
  await expect(demo.assistant()).toContainText('Second answer.');
  await expect(demo.assistant(0)).toContainText('slow4');
  const { requests } = await recorded();
  // The partial answer is part of the conversation the model sees next.
  const history = requests[1]?.messages ?? [];
  expect(history.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
  expect(history[2]?.content).toContain('slow4');
});

test('a server error shows the message, and Retry succeeds', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open();
  await enqueue({
    status: 500,
    errorBody: JSON.stringify({ error: { message: 'model crashed while loading' } }),
  });

  await demo.send('Hello?');

  const banner = demo.chat.getByRole('alert');
  await expect(banner).toContainText('model crashed while loading');
  await enqueue({ text: 'Recovered fine.' });
  await banner.getByRole('button', { name: 'Retry' }).click();

  await expect(demo.assistant()).toContainText('Recovered fine.');
  await expect(banner).toBeHidden();
  const { requests } = await recorded();
  expect(requests).toHaveLength(2);
  // The retry re-sends the same conversation: the prompt once, no duplicate.
  expect(requests[1]?.messages.filter((message) => message.role === 'user')).toHaveLength(1);
});

test('a reload restores the conversation from IndexedDB', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open({ conversation: 'e2e-reload' });
  await enqueue({ text: 'This answer *persists*.' });
  await demo.send('Remember this chat');
  await expect(demo.assistant()).toContainText('This answer persists.');
  await demo.idle();

  await page.reload();

  await expect(demo.log.locator('article.user .bubble')).toHaveText('Remember this chat');
  await expect(demo.assistant().locator('em')).toHaveText('persists');
  await expect(demo.chat.locator('[part~="conversation-current"]')).toContainText(
    'Remember this chat',
  );
  expect((await recorded()).requests).toHaveLength(1);
});

test('a reload while the answer streams marks it interrupted, with Retry', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open({ conversation: 'e2e-interrupted' });
  await enqueue({ text: words(80, 'slow'), delayMs: 60 });
  await demo.send('Say a lot');
  await expect(demo.assistant()).toContainText('slow3');

  await page.reload();

  await expect(demo.assistant().locator('[part~="note"]')).toContainText('interrupted');
  await enqueue({ text: 'A fresh answer.' });
  await demo.chat.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
  await expect(demo.assistant()).toContainText('A fresh answer.');
  await expect(demo.log.locator('article.user')).toHaveCount(1);
});
