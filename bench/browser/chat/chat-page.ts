import '../../../components/index.js';
import { Client, indexedDBHistory, type Message, type MessageFork } from '../../../src/index.js';
import { inMemoryFetch, sliceBody, textStream } from '../../support/sse-fixture.js';
import { benchMessages } from '../core/bench-messages.js';
import type { ChatBenchApi, OpenTimes, StreamOptions, StreamTimes } from './chat-bench-api.js';
import type { HostileAnswer } from './hostile-answers.js';
import { END_MARKER, hostileDeltas, pacedModel } from './hostile-answers.js';
import { MARKDOWN_DELTAS } from './markdown-deltas.js';
import { afterPaint, nextTask, observeMainThread, type MainThreadLoad } from './main-thread.js';
import { runCalls } from './tool-calls.js';

const BASE_URL = 'http://127.0.0.1:11434/v1';

/** Text of `root` and every shadow root below it. */
function deepText(root: Node): string {
  let text = '';
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? '';
    if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child);
  };
  walk(root);
  return text;
}

async function stream(options: StreamOptions): Promise<StreamTimes> {
  // The last delta marks the end, so we can see when the whole answer is on screen.
  const all: string[] = [];
  if (options.answer) all.push(...hostileDeltas(options.answer, options.deltaSize ?? 1_024));
  else {
    for (let index = 0; index < options.deltas - 1; index++)
      all.push(MARKDOWN_DELTAS[index % MARKDOWN_DELTAS.length] ?? '');
    all.push(`\n\n${END_MARKER}`);
  }
  const expected = all.join('').length;
  // Paced: the bench's server streams the answer over HTTP, a delta every `intervalMs` (as the
  // issue measured it). Otherwise the bytes come from memory, a 4 KiB read per task.
  const transport =
    options.answer && options.intervalMs !== undefined
      ? {
          baseURL: `${location.origin}/v1`,
          model: pacedModel(options.answer, {
            deltaSize: options.deltaSize ?? 1_024,
            intervalMs: options.intervalMs,
          }),
          fetch: globalThis.fetch.bind(globalThis),
        }
      : {
          baseURL: BASE_URL,
          model: 'bench',
          fetch: inMemoryFetch(
            sliceBody(textStream(all.length, all).bytes, { kind: 'fixed', size: 4096 }),
            nextTask,
          ),
        };
  const { fetch } = transport;

  if (!options.render) {
    const client = new Client({ model: transport.model, baseURL: transport.baseURL, fetch });
    const observed = await observeMainThread(async () => {
      const start = performance.now();
      let textLength = 0;
      for await (const event of client.run('Explain the loop'))
        if (event.type === 'text') textLength += event.text.length;
      return { totalMs: performance.now() - start, textLength };
    });
    if (observed.result.textLength !== expected)
      throw new Error(`the Client saw ${observed.result.textLength} of ${expected} characters`);
    return { ...load(observed), ...observed.result };
  }

  const chat = document.createElement('agent-chat');
  chat.model = transport.model;
  chat.baseUrl = transport.baseURL;
  chat.options = { fetch };
  document.body.replaceChildren(chat);
  await chat.updateComplete;
  await afterPaint();
  const root = chat.shadowRoot;
  if (!root) throw new Error('<agent-chat> has no shadow root');
  // On screen: the end of the answer, or (a very long answer) everything up to "Show more", with
  // no rendering still in progress.
  // (The cheap checks first: the page's own text walk of a 1 MB answer would be a long task.)
  const idle = () => root.querySelector('.markdown[aria-busy]') === null;
  const settled = () =>
    idle() &&
    (root.querySelector('button.show-more[aria-expanded="false"]') !== null ||
      deepText(chat).includes(END_MARKER));
  const observed = await observeMainThread(async () => {
    const start = performance.now();
    let textLength = 0;
    chat.addEventListener('agent-event', (event) => {
      if (event.detail.type === 'text') textLength += event.detail.text.length;
    });
    const ended = new Promise<void>((resolve) =>
      chat.addEventListener('agent-run-end', () => resolve(), { once: true }),
    );
    await chat.send('Explain the loop');
    await ended;
    await chat.updateComplete;
    let painted = await afterPaint();
    // Rendering may trail the run by a frame or two; the figure ends when the end is on screen.
    for (let frame = 0; frame < 600 && !settled(); frame++) painted = await afterPaint();
    if (!settled()) throw new Error('<agent-chat> never showed the end of the streamed answer');
    return { totalMs: painted - start, textLength };
  });
  if (observed.result.textLength !== expected)
    throw new Error(`<agent-chat> saw ${observed.result.textLength} of ${expected} characters`);
  const times: StreamTimes = { ...load(observed), ...observed.result };
  const more = root.querySelector<HTMLButtonElement>('button.show-more');
  if (options.expand && more) {
    // The reader asks for the rest: rendered in slices, until its last line is on screen.
    const expanded = await observeMainThread(async () => {
      const start = performance.now();
      more.click();
      let painted = await afterPaint();
      for (let frame = 0; frame < 6_000 && !idle(); frame++) painted = await afterPaint();
      return { totalMs: painted - start };
    });
    // Checked after the measurement: walking the text of a 1 MB DOM is a long task of its own.
    if (!deepText(chat).includes(END_MARKER))
      throw new Error('"Show more" never showed the end of the answer');
    times.expanded = { ...load(expanded), ...expanded.result };
  }
  chat.remove();
  return times;
}

function load({
  longestTaskMs,
  longTasks,
  longestFrameGapMs,
  frames,
  longestFrame,
}: MainThreadLoad): MainThreadLoad {
  return { longestTaskMs, longTasks, longestFrameGapMs, frames, longestFrame };
}

async function open(options: {
  messages: number;
  branches?: number;
  huge?: HostileAnswer;
}): Promise<OpenTimes> {
  const dbName = `open-agent-bench-chat-${Date.now()}`;
  const writer = indexedDBHistory({ dbName });
  const messages = benchMessages(options.messages);
  if (options.huge) {
    // A stored huge answer, then a short exchange whose end shows the conversation is on screen.
    const answer = hostileDeltas(options.huge, 1_024).slice(0, -1).join('');
    messages.push(
      { role: 'user', content: 'Paste it all' },
      { role: 'assistant', content: answer },
      { role: 'user', content: 'Thanks' },
      { role: 'assistant', content: 'You are welcome, END-OF-OPEN' },
    );
  }
  for (let offset = 0; offset < messages.length; offset += 500)
    await writer.append('open', messages.slice(offset, offset + 500));
  const forks = benchForks(messages, options.branches ?? 0);
  if (forks.length > 0) {
    // A version 2 file: the same conversation with earlier versions of some answers.
    const file = JSON.parse(await writer.exportConversation('open')) as Record<string, unknown>;
    await writer.importConversation(JSON.stringify({ ...file, forks }), { id: 'open' });
  }
  writer.close?.();
  const last = messages.at(-1);
  const marker = typeof last?.content === 'string' ? last.content.slice(-14) : '';
  if (marker === '') throw new Error('the last bench message has no text to look for');
  try {
    const chat = document.createElement('agent-chat');
    chat.model = 'bench';
    chat.baseUrl = BASE_URL;
    chat.history = indexedDBHistory({ dbName });
    chat.conversationId = 'open';
    await afterPaint();
    // Opened when the last message shows and no markdown is still rendering in slices.
    const root = () => chat.shadowRoot;
    const observed = await observeMainThread(async () => {
      const start = performance.now();
      document.body.replaceChildren(chat);
      let painted = start;
      for (let frame = 0; frame < 600; frame++) {
        painted = await afterPaint();
        if (
          root()?.querySelector('.markdown[aria-busy]') == null &&
          deepText(chat).includes(marker)
        )
          break;
      }
      return painted - start;
    });
    const shown = deepText(chat);
    if (!shown.includes(marker)) {
      throw new Error(
        `<agent-chat> did not show the last of ${options.messages} messages ("${marker}") within 600 frames; it shows: …${shown.slice(-300)}`,
      );
    }
    chat.remove();
    chat.history.close?.();
    return {
      firstPaintMs: observed.result,
      stored: messages.length,
      forks: forks.length,
      ...load(observed),
    };
  } finally {
    indexedDB.deleteDatabase(dbName);
  }
}

/**
 * `count` answers spread over the conversation, each with an earlier version: the answer and
 * the 20 messages after it, as regenerating it would have left them.
 */
function benchForks(messages: readonly Message[], count: number): MessageFork[] {
  const answers = messages.flatMap((message, index) =>
    message.role === 'assistant' && messages[index - 1]?.role === 'user' ? [index] : [],
  );
  const step = Math.max(1, Math.floor(answers.length / Math.max(count, 1)));
  return answers
    .filter((_, position) => position % step === 0)
    .slice(0, count)
    .map((index) => ({
      index,
      branches: [{ messages: messages.slice(index, index + 20), forks: [] }, null],
    }));
}

const api: ChatBenchApi = { stream, open, calls: runCalls };
window.chatBench = api;
