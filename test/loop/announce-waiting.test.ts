import { describe, expect, it } from 'vitest';
import { pumpPhases, type PhaseStep } from '../../src/loop/agent-loop.js';
import { announceWaiting, WaitStatus } from '../../src/loop/announce-waiting.js';
import type { AgentEvent } from '../../src/types/events.js';

const text = (value: string): AgentEvent => ({ type: 'text', text: value });

/** A model call's events: reported as sent, then three tokens; returns 42. */
async function* call(status: WaitStatus): AsyncGenerator<AgentEvent, number> {
  status.report({ phase: 'waiting' });
  await Promise.resolve();
  yield text('a');
  yield text('b');
  yield text('c');
  return 42;
}

describe('announceWaiting', () => {
  it('hands the call to the pump once the first token came: later events skip it', async () => {
    const status = new WaitStatus();
    const source = call(status);
    const phase = announceWaiting(source, status);
    const first = await phase.next();
    expect(first.value).toEqual(text('a'));
    // The wait is over: the call itself, for the pump to run (not its events one by one).
    const handed = await phase.next();
    expect(handed).toEqual({ done: false, value: source });
    // The pump resumes it with the call's return value, which it returns.
    expect(await phase.next(42)).toEqual({ done: true, value: 42 });
  });

  it('through the pump: every event once, in order, and the call’s return value', async () => {
    const status = new WaitStatus();
    let returned: unknown;
    async function* loop(): AsyncGenerator<PhaseStep, void> {
      await Promise.resolve(); // a real await: phases resume across microtasks
      returned = yield announceWaiting(call(status), status);
    }
    const seen: AgentEvent[] = [];
    for await (const event of pumpPhases(loop())) seen.push(event);
    expect(seen).toEqual([text('a'), text('b'), text('c')]);
    expect(returned).toBe(42);
  });

  it('stopped by the caller after the hand-over: the call is closed', async () => {
    const status = new WaitStatus();
    let closed = false;
    async function* endless(): AsyncGenerator<AgentEvent, void> {
      status.report({ phase: 'waiting' });
      await Promise.resolve();
      try {
        for (;;) yield text('x');
      } finally {
        closed = true;
      }
    }
    async function* loop(): AsyncGenerator<PhaseStep, void> {
      await Promise.resolve();
      yield announceWaiting(endless(), status);
    }
    let count = 0;
    for await (const event of pumpPhases(loop())) {
      expect(event).toEqual(text('x'));
      if (++count === 3) break;
    }
    expect(closed).toBe(true);
  });

  it('leaves a call the pump ran to its end alone: no return() on it afterwards', async () => {
    const status = new WaitStatus();
    const source = call(status);
    let returns = 0;
    const counted: AsyncGenerator<AgentEvent, number> = Object.assign(Object.create(source), {
      next: (value?: unknown) => source.next(value as never),
      return: (value: number) => {
        returns++;
        return source.return(value);
      },
      [Symbol.asyncIterator]() {
        return counted;
      },
    }) as AsyncGenerator<AgentEvent, number>; // the generator, its return() counted
    async function* loop(): AsyncGenerator<PhaseStep, void> {
      await Promise.resolve();
      yield announceWaiting(counted, status);
    }
    for await (const event of pumpPhases(loop())) expect(event.type).toBe('text');
    expect(returns).toBe(0);
  });
});
