import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, recorded, resetServer } from './fake-server.js';

test.beforeEach(async () => {
  await resetServer();
});

const contents = (request: unknown) =>
  (request as { messages: { role: string; content: string }[] }).messages
    .filter((message) => message.role !== 'system')
    .map((message) => message.content);

async function seriousViolations(page: Page) {
  // The new controls live in the element: the demo page around it has its own spec.
  const { violations } = await new AxeBuilder({ page }).include('agent-chat').analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

test('regenerate and edit an earlier prompt keep every version: ‹ 1 / 2 › switches, also after a reload', async ({
  page,
}) => {
  const demo = new DemoPage(page);
  await demo.open({ conversation: `e2e-branches-${Date.now()}` });
  await enqueue(
    { text: 'First answer.' },
    { text: 'Second answer.' },
    { text: 'Second, again.' },
    { text: 'Edited first.' },
  );
  await demo.send('one');
  await expect(demo.assistant()).toContainText('First answer.');
  await demo.send('two');
  await expect(demo.assistant()).toContainText('Second answer.');
  await demo.idle();

  await demo.chat.locator('[part~="regenerate-button"]').click();
  await expect(demo.assistant()).toContainText('Second, again.');
  await demo.idle();
  const answerVersions = demo.assistant().getByRole('group', { name: 'Versions' });
  await expect(answerVersions).toContainText('2 / 2');
  // The old answer comes back, with the keyboard.
  await answerVersions.getByRole('button', { name: 'Previous version' }).click();
  await expect(demo.assistant().locator('.markdown')).toHaveText('Second answer.');
  await expect(answerVersions).toContainText('1 / 2');
  await expect(answerVersions.getByRole('button', { name: 'Next version' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(demo.assistant().locator('.markdown')).toHaveText('Second, again.');

  // Edit the first prompt: a new branch from there, sent alone.
  await demo.log
    .locator('article.user')
    .first()
    .getByRole('button', { name: 'Edit this message' })
    .click();
  await expect(demo.input).toHaveValue('one');
  await expect(demo.input).toBeFocused();
  await demo.input.fill('one, edited');
  await demo.input.press('Enter');
  await expect(demo.assistant()).toContainText('Edited first.');
  await demo.idle();
  const { requests } = await recorded();
  expect(contents(requests[2])).toEqual(['one', 'First answer.', 'two']);
  expect(contents(requests[3])).toEqual(['one, edited']);
  await expect(demo.log.locator('article')).toHaveCount(2);
  const promptVersions = demo.log
    .locator('article.user')
    .first()
    .getByRole('group', { name: 'Versions' });
  await expect(promptVersions).toContainText('2 / 2');

  await page.reload();
  await expect(promptVersions).toContainText('2 / 2');
  await promptVersions.getByRole('button', { name: 'Previous version' }).click();
  await expect(demo.log.locator('article.user .bubble')).toHaveText(['one', 'two']);
  await expect(demo.assistant().locator('.markdown')).toHaveText('Second, again.');
  await expect(demo.assistant().getByRole('group', { name: 'Versions' })).toContainText('2 / 2');

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await demo.log.screenshot({ path: `test-results/e2e/branches-${colorScheme}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  }
});

test('Copy puts an answer and a code block on the clipboard; code is highlighted', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const demo = new DemoPage(page);
  await demo.open();
  const answer = 'Here:\n\n```js\nconst answer = 42; // the answer\nconsole.log("hi");\n```\n';
  await enqueue({ text: answer });
  await demo.send('Show code');
  const code = demo.assistant().locator('pre code');
  await expect(code).toContainText('console.log');
  await demo.idle();
  // Highlighted: the keyword is a coloured span, the text unchanged.
  await expect(code.locator('span', { hasText: 'const' }).first()).toBeVisible();
  await expect(code).toHaveText('const answer = 42; // the answer\nconsole.log("hi");\n');

  const copyCode = demo.assistant().locator('[part~="copy-button"]');
  await copyCode.click();
  await expect(copyCode).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'const answer = 42; // the answer\nconsole.log("hi");\n',
  );

  const copyAnswer = demo.assistant().getByRole('button', { name: 'Copy the answer' });
  await copyAnswer.click();
  await expect(demo.assistant().locator('[part~="copy-answer-button"]')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(answer);

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await demo.assistant().screenshot({ path: `test-results/e2e/copy-${colorScheme}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  }
});
