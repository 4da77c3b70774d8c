// How busy the main thread is while the chat bench runs something (long tasks, frames).

/** A new task, not clamped like nested `setTimeout(0)`: network reads arrive this way. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** Resolves after the next frame has been painted (a task queued from rAF runs after the paint). */
export function afterPaint(): Promise<number> {
  return new Promise((resolve) =>
    requestAnimationFrame(() => void nextTask().then(() => resolve(performance.now()))),
  );
}

/** How busy the main thread was while something ran. */
export interface MainThreadLoad {
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
export async function observeMainThread<T>(
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
