import '../../../components/index.js';
import { Client, indexedDBHistory, type Message, type MessageFork } from '../../../src/index.js';
import { inMemoryFetch, sliceBody, textStream } from '../../support/sse-fixture.js';
import { benchMessages } from '../core/bench-messages.js';
import type { ChatBenchApi, OpenTimes, StreamOptions, StreamTimes } from './chat-bench-api.js';
import type { HostileAnswer } from './hostile-answers.js';
import { END_MARKER, hostileDeltas, pacedModel } from './hostile-answers.js';
import { MARKDOWN_DELTAS } from './markdown-deltas.js';

const BASE_URL = 'http://127.0.0.1:11434/v1';

/** A new task, not clamped like nested `setTimeout(0)`: network reads arrive this way. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** Resolves after the next frame has been painted (a task queued from rAF runs after the paint). */
function afterPaint(): Promise<number> {
  return new Promise((resolve) =>
    requestAnimationFrame(() => void nextTask().then(() => resolve(performance.now()))),
  );
}

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

/** How busy the main thread was while something ran. */
interface MainThreadLoad {
  longestTaskMs: number;
  longTasks: number;
  longestFrameGapMs: number;
  frames: number;
  /** What the longest animation frame (Long Animation Frames API) spent its time on. */
  longestFrame: string;
}

/** The parts of a `long-animation-frame` entry read here (not yet in TypeScript's DOM types). */
interface LongAnimationFrame extends PerformanceEntry {
  styleAndLayoutStart: number;
  scripts: { duration: number; invoker: string; forcedStyleAndLayoutDuration: number }[];
}

function describeFrame(frame: LongAnimationFrame | undefined): string {
  if (!frame) return 'none ≥ 50 ms';
  const scripts = [...frame.scripts].sort((a, b) => b.duration - a.duration);
  const scriptMs = scripts.reduce((sum, script) => sum + script.duration, 0);
  const forcedMs = scripts.reduce((sum, script) => sum + script.forcedStyleAndLayoutDuration, 0);
  const layoutMs = frame.startTime + frame.duration - frame.styleAndLayoutStart;
  const top = scripts[0]
    ? `, most in ${scripts[0].invoker} (${scripts[0].duration.toFixed(0)} ms)`
    : '';
  return `${frame.duration.toFixed(0)} ms: script ${scriptMs.toFixed(0)} ms (forced layout ${forcedMs.toFixed(0)} ms)${top}, style and layout ${layoutMs.toFixed(0)} ms`;
}

/** Long tasks (PerformanceObserver) and the longest animation-frame gap while `run` is in progress. */
async function observeMainThread<T>(
  run: () => Promise<T>,
): Promise<MainThreadLoad & { result: T }> {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  let longestFrame: LongAnimationFrame | undefined;
  const frameObserver = new PerformanceObserver((list) => {
    // The entry type's own interface: see LongAnimationFrame above.
    for (const entry of list.getEntries() as LongAnimationFrame[])
      if (entry.duration > (longestFrame?.duration ?? 0)) longestFrame = entry;
  });
  frameObserver.observe({ type: 'long-animation-frame' });
  let running = true;
  let last = performance.now();
  let longestFrameGapMs = 0;
  let frames = 0;
  // performance.now(), not the rAF timestamp: the gap between callbacks actually running.
  const frame = () => {
    const now = performance.now();
    longestFrameGapMs = Math.max(longestFrameGapMs, now - last);
    last = now;
    frames++;
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  try {
    const result = await run();
    for (const entry of observer.takeRecords()) tasks.push(entry.duration);
    for (const entry of frameObserver.takeRecords() as LongAnimationFrame[])
      if (entry.duration > (longestFrame?.duration ?? 0)) longestFrame = entry;
    return {
      result,
      longestTaskMs: Math.max(0, ...tasks),
      longTasks: tasks.length,
      longestFrameGapMs,
      frames,
      longestFrame: describeFrame(longestFrame),
    };
  } finally {
    running = false;
    observer.disconnect();
    frameObserver.disconnect();
  }
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

const api: ChatBenchApi = { stream, open };
window.chatBench = api;
