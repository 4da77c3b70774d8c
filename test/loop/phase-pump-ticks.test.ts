import { describe, expect, it } from 'vitest';
import { pumpPhases, type PhaseStep } from '../../src/loop/agent-loop.js';
import type { AgentEvent } from '../../src/types/events.js';

const text = (value: string): AgentEvent => ({ type: 'text', text: value });

/** Microtask turns until `promise` settles (the event's path to the consumer, not a time). */
async function turns(promise: Promise<unknown>): Promise<number> {
  let settled = false;
  const settle = () => (settled = true);
  promise.then(settle, settle);
  let count = 0;
  while (!settled && count < 100) {
    await Promise.resolve();
    count++;
  }
  return count;
}

describe('pumpPhases: the path of an event', () => {
  // The pump written as an `async function*` took 4: its own `yield` awaited each event again.
  it('reaches the consumer in 3 microtask turns once its phase yields it', async () => {
    async function* model(): AsyncGenerator<PhaseStep, void> {
      await Promise.resolve();
      for (let index = 0; index < 4; index++) yield text(String(index));
    }
    async function* loop(): AsyncGenerator<PhaseStep, void> {
      await Promise.resolve();
      yield model();
    }
    const pump = pumpPhases(loop());
    await pump.next(); // the phases started
    const counts = [await turns(pump.next()), await turns(pump.next())];
    expect(counts.every((count) => count <= 3)).toBe(true);
  });
});
