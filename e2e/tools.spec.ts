import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, recorded, resetServer } from './fake-server.js';

test.beforeEach(async () => {
  await resetServer();
});

test('a tool call card shows the arguments, then the result, then the answer', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open();
  await enqueue(
    { toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }], delayMs: 20 },
    { text: 'The answer is **42**.', delayMs: 150 },
  );

  await demo.send('What is 6 * 7?');

  const card = demo.toolCard('calculator');
  await expect(card.locator('[part~="tool-arguments"]')).toContainText('"expression": "6 * 7"');
  await expect(card.locator('[part~="tool-result"]')).toContainText('"value": 42');
  await expect(card.locator('[part~="tool-status"]')).toContainText('Done');
  // The final answer streams after the result card.
  await expect(demo.assistant().locator('.markdown strong')).toHaveText('42');
  const { requests } = await recorded();
  expect(requests[1]?.messages.at(-1)).toMatchObject({
    role: 'tool',
    content: JSON.stringify({ expression: '6 * 7', value: 42 }),
  });
});

test('the JavaScript sandbox tool runs in a worker', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open();
  await enqueue(
    {
      toolCalls: [
        {
          name: 'run_javascript',
          arguments: { code: 'console.log(typeof document);\n[1, 2, 3].map((x) => x * 2)' },
        },
      ],
    },
    { text: 'Doubled.' },
  );

  await demo.send('Double 1, 2, 3 with code');

  await expect(demo.assistant()).toContainText('Doubled.');
  const result = JSON.parse(
    (await recorded()).requests[1]?.messages.at(-1)?.content ?? '{}',
  ) as unknown;
  // `document` is undefined: the code ran in a worker, not in the page.
  expect(result).toEqual({ result: [2, 4, 6], logs: ['undefined'] });
  await expect(demo.toolCard('run_javascript').locator('[part~="tool-status"]')).toContainText(
    'Done',
  );
});

test('approval: edit the arguments, then approve', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open({ approval: 'run_javascript' });
  await enqueue(
    { toolCalls: [{ name: 'run_javascript', arguments: { code: '1 + 1' } }] },
    { text: 'Ran the edited code.' },
  );

  await demo.send('Add numbers');

  const card = demo.toolCard('run_javascript');
  await expect(card.locator('[part~="tool-status"]')).toContainText('Waiting for approval');
  expect((await recorded()).requests).toHaveLength(1);
  await card.getByRole('button', { name: 'Edit arguments' }).click();
  const editor = card.getByRole('textbox', { name: 'Arguments (JSON)' });
  await expect(editor).toBeFocused();
  await editor.fill('{ "code": "40 + 2" }');
  await card.getByRole('button', { name: 'Approve with these arguments' }).click();

  await expect(demo.assistant()).toContainText('Ran the edited code.');
  await expect(card.locator('[part~="tool-result"]')).toContainText('42');
  const toolMessage = (await recorded()).requests[1]?.messages.at(-1);
  expect(JSON.parse(toolMessage?.content ?? '{}')).toMatchObject({ result: 42 });
});

test('approval: deny tells the model and runs nothing', async ({ page }) => {
  const demo = new DemoPage(page);
  await demo.open({ approval: 'run_javascript' });
  await enqueue(
    { toolCalls: [{ name: 'run_javascript', arguments: { code: 'while (true) {}' } }] },
    { text: 'Understood, not running it.' },
  );

  await demo.send('Run a loop');

  const card = demo.toolCard('run_javascript');
  await card.getByRole('button', { name: 'Deny' }).click();

  await expect(card.locator('[part~="tool-status"]')).toContainText('Denied');
  await expect(demo.assistant()).toContainText('Understood, not running it.');
  const toolMessage = (await recorded()).requests[1]?.messages.at(-1);
  expect(toolMessage).toMatchObject({ role: 'tool' });
  expect(toolMessage?.content).toMatch(/denied/);
});

test('with "Run tools automatically" off, the demo model\'s calculator call gets Run, and Run answers', async ({
  page,
}) => {
  const demo = new DemoPage(page);
  await demo.open({ source: 'demo', autoExecute: 'false' });

  await demo.send('What is 6 * 7?');

  const card = demo.toolCard('calculator');
  await expect(card.locator('[part~="tool-note"]')).toContainText('run this call?');
  await card.getByRole('button', { name: 'Run' }).click();
  await expect(card.locator('[part~="tool-status"]')).toContainText('Done');
  await expect(demo.assistant()).toContainText('42');
});
