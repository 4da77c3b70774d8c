/** Milliseconds of rendering one task may spend before the rest waits for the next frame. */
const SLICE_MS = 8;

let sliceEnd: number | undefined;

/**
 * Whether the current task may render more: `true` until {@link SLICE_MS} have passed since the
 * first call in this task. Every view rendering long text shares this clock, so a frame stays
 * short (no main-thread task ≥ 50 ms) however many views have work; what is left waits for
 * the next frame.
 */
export function withinSlice(): boolean {
  const now = performance.now();
  if (sliceEnd === undefined) {
    sliceEnd = now + SLICE_MS;
    // A message is the next task: the clock starts again there.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      sliceEnd = undefined;
      channel.port1.close();
    };
    channel.port2.postMessage(null);
  }
  return now < sliceEnd;
}
