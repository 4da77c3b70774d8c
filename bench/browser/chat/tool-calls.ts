import { manyCallsChat } from '../../../test/support/many-calls-chat.js';
import type { CallsTimes } from './chat-bench-api.js';
import { afterPaint, observeMainThread } from './main-thread.js';

/**
 * Issue 27 item 6: one answer with `count` tool calls (a scripted model), the app having raised
 * `maxToolCallsPerResponse` to run them all; tools that answer at once. Measures the main
 * thread from the prompt to the last card shown done and the answer after them.
 */
export async function runCalls(options: { count: number }): Promise<CallsTimes> {
  const { chat, ran } = manyCallsChat({ count: options.count, limit: options.count });
  document.body.replaceChildren(chat);
  await chat.updateComplete;
  await afterPaint();
  const root = chat.shadowRoot;
  if (!root) throw new Error('<agent-chat> has no shadow root');
  const done = () =>
    root.querySelectorAll('section.tool.done').length === options.count &&
    (root.querySelector('article.assistant')?.textContent ?? '').includes('All done.');
  const observed = await observeMainThread(async () => {
    const start = performance.now();
    const ended = new Promise<void>((resolve) =>
      chat.addEventListener('agent-run-end', () => resolve(), { once: true }),
    );
    await chat.send(`Take ${options.count} steps`);
    await ended;
    let painted = await afterPaint();
    for (let frame = 0; frame < 600 && !done(); frame++) painted = await afterPaint();
    return painted - start;
  });
  const cards = root.querySelectorAll('section.tool.done').length;
  chat.remove();
  return {
    totalMs: observed.result,
    longestTaskMs: observed.longestTaskMs,
    longTasks: observed.longTasks,
    longestFrameGapMs: observed.longestFrameGapMs,
    ran: ran.length,
    cards,
  };
}
