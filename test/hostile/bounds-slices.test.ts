import { describe, expect, it } from 'vitest';
import { RunSlices } from '../../components/chat/run-slices.js';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// Issue 27 item 6, the structure behind "200 calls render with no long task" (the timing is
// `npm run bench`'s): back-to-back events re-render once per task, and the feed yields.
describe('RunSlices: a run fed in back-to-back events', () => {
  it('re-renders once at the first change of a task and once at its end, not per event', async () => {
    let renders = 0;
    const slices = new RunSlices(() => renders++);
    for (let event = 0; event < 400; event++) slices.change();
    expect(renders).toBe(1);
    await nextTask();
    expect(renders).toBe(2);
    slices.change();
    expect(renders).toBe(3);
  });

  it('renders a change a listener may wait for (awaiting the user, done) at once', () => {
    let renders = 0;
    const slices = new RunSlices(() => renders++);
    slices.change();
    slices.change();
    slices.change(true);
    expect(renders).toBe(2);
    slices.flush();
    expect(renders).toBe(2);
  });

  it('hands the main thread back once a task has fed events past its budget', async () => {
    const slices = new RunSlices(() => undefined, 0);
    expect(slices.pace()).toBeUndefined();
    const start = performance.now();
    while (performance.now() === start) {
      // The budget (0 ms) passes.
    }
    const paused = slices.pace();
    expect(paused).toBeInstanceOf(Promise);
    await paused;
    // A new task: the next event opens a new slice.
    expect(slices.pace()).toBeUndefined();
  });

  it('flush renders a change that waited for the task end', () => {
    let renders = 0;
    const slices = new RunSlices(() => renders++);
    slices.change();
    slices.change();
    slices.flush();
    expect(renders).toBe(2);
  });
});
