/** The most milliseconds of rendering one task may spend before the rest waits for the next frame. */
const MAX_SLICE_MS = 8;
/** The least: with a frame this costly, one chunk per task is all there is anyway. */
const MIN_SLICE_MS = 1;
/**
 * What a frame that renders may cost in all, its script and the style, layout and paint that
 * follow it — well under the 50 ms of a long task, so a slower machine (or a busier one) has room.
 */
const FRAME_MS = 25;

let sliceMs = MAX_SLICE_MS;
let sliceStart = 0;
let sliceEnd: number | undefined;
let spent = false;

/**
 * Whether the current task may render more: `true` until the slice (at most 8 ms) has passed
 * since the first call in this task. Every view rendering long text shares this clock, so a frame
 * stays short (no main-thread task ≥ 50 ms) however many views have work; what is left waits for
 * the next frame. The slice adapts to what the work costs after the script: when a slice ran in
 * an animation frame, the next task comes after that frame's style, layout and paint, so the time
 * to it is the frame's whole cost; layout-heavy text (a 1,000-level list) or a slow machine gets
 * smaller slices, cheap text the full 8 ms again.
 */
export function withinSlice(): boolean {
  const now = performance.now();
  if (sliceEnd === undefined) {
    sliceStart = now;
    sliceEnd = now + sliceMs;
    spent = false;
    // A message is the next task: the clock starts again there.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      const cost = performance.now() - sliceStart;
      // Only a slice cut short says what a full one costs; any slice may say it cost too much.
      if (spent || cost > FRAME_MS)
        sliceMs = Math.min(
          MAX_SLICE_MS,
          Math.max(MIN_SLICE_MS, (sliceMs * FRAME_MS) / Math.max(cost, 1)),
        );
      sliceEnd = undefined;
      channel.port1.close();
    };
    channel.port2.postMessage(null);
  }
  if (now < sliceEnd) return true;
  spent = true;
  return false;
}
