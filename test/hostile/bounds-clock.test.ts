import { describe, expect, it } from 'vitest';
import { SharedClock, type ClockTimers } from '../../components/tool-card/shared-clock.js';

/** Timers that only count and tick when told. */
function fakeTimers() {
  const callbacks = new Map<number, () => void>();
  let next = 0;
  const timers: ClockTimers = {
    setInterval: (callback) => (callbacks.set(++next, callback), next),
    clearInterval: (handle) => callbacks.delete(handle as number),
  };
  return {
    timers,
    callbacks,
    started: () => next,
    beat: () => callbacks.forEach((tick) => tick()),
  };
}

// Issue 27 item 6: each running tool card's clock (<agent-elapsed>) had its own setInterval —
// 200 running calls were 200 timers. One clock now ticks them all.
describe('SharedClock: the running cards’ clocks', () => {
  it('runs one timer for 200 clocks, ticks each once per beat, and stops when none is left', () => {
    const fake = fakeTimers();
    const clock = new SharedClock(100, fake.timers);
    const ticks = Array.from({ length: 200 }, () => 0);
    const stops = ticks.map((_, index) => clock.add(() => ticks[index]!++));
    expect(fake.started()).toBe(1);
    expect(fake.callbacks.size).toBe(1);
    fake.beat();
    expect(ticks.every((count) => count === 1)).toBe(true);
    stops.slice(0, 199).forEach((stop) => stop());
    fake.beat();
    expect(ticks.slice(0, 199).every((count) => count === 1)).toBe(true);
    expect(ticks[199]).toBe(2);
    expect(fake.callbacks.size).toBe(1);
    stops[199]!();
    expect(fake.callbacks.size).toBe(0);
    expect(clock.size).toBe(0);
  });

  it('starts again for a clock added after the last one stopped; a second stop is harmless', () => {
    const fake = fakeTimers();
    const clock = new SharedClock(100, fake.timers);
    const stop = clock.add(() => undefined);
    stop();
    stop();
    expect(fake.callbacks.size).toBe(0);
    clock.add(() => undefined);
    expect(fake.started()).toBe(2);
    expect(fake.callbacks.size).toBe(1);
  });
});
