import { describe, expect, it } from 'vitest';
import { pumpPhases, type PhaseStep } from '../../src/loop/agent-loop.js';
import type { AgentEvent } from '../../src/types/events.js';

const text = (value: string): AgentEvent => ({ type: 'text', text: value });
const tick = () => Promise.resolve();

async function collect(events: AsyncIterable<AgentEvent>): Promise<string[]> {
  const seen: string[] = [];
  for await (const event of events) seen.push(event.type === 'text' ? event.text : event.type);
  return seen;
}

// The pump stands in for nested `yield*`: these pin down that it behaves like it.
describe('pumpPhases', () => {
  it('passes on the events of nested phases in order and resumes each with its phase’s value', async () => {
    const log: unknown[] = [];
    async function* model(): AsyncGenerator<PhaseStep, number> {
      await tick(); // a real await: phases resume across microtasks
      yield text('a');
      yield text('b');
      return 42;
    }
    function* round(): Generator<PhaseStep, string> {
      yield text('c');
      return 'settled';
    }
    async function* loop(): AsyncGenerator<PhaseStep, void> {
      await tick(); // a real await: phases resume across microtasks
      log.push(yield model());
      yield text('between');
      log.push(yield round());
      yield (async function* (): AsyncGenerator<PhaseStep, void> {
        await tick(); // a real await: phases resume across microtasks
        yield round();
        yield text('d');
      })();
    }
    expect(await collect(pumpPhases(loop()))).toEqual(['a', 'b', 'between', 'c', 'c', 'd']);
    expect(log).toEqual([42, 'settled']);
  });

  it('throws a phase’s error into the phase that started it, which may recover', async () => {
    async function* failing(): AsyncGenerator<PhaseStep, void> {
      await tick(); // a real await: phases resume across microtasks
      yield text('partial');
      throw new Error('stream cut');
    }
    async function* loop(): AsyncGenerator<PhaseStep, void> {
      await tick(); // a real await: phases resume across microtasks
      try {
        yield failing();
      } catch (error) {
        yield text(`caught ${(error as Error).message}`); // thrown by `failing` above
      }
    }
    expect(await collect(pumpPhases(loop()))).toEqual(['partial', 'caught stream cut']);
  });

  it('rethrows an error no phase handles, after the events before it', async () => {
    async function* loop(): AsyncGenerator<PhaseStep, void> {
      await tick(); // a real await: phases resume across microtasks
      yield text('x');
      yield (function* (): Generator<PhaseStep, void> {
        throw new Error('boom');
      })();
    }
    const seen: string[] = [];
    await expect(async () => {
      for await (const event of pumpPhases(loop())) seen.push(event.type);
    }).rejects.toThrow('boom');
    expect(seen).toEqual(['text']);
  });

  it('closes the open phases innermost first when the consumer stops early', async () => {
    const closed: string[] = [];
    async function* inner(): AsyncGenerator<PhaseStep, void> {
      await tick(); // a real await: phases resume across microtasks
      try {
        yield text('1');
        yield text('2');
      } finally {
        closed.push('inner');
      }
    }
    async function* outer(): AsyncGenerator<PhaseStep, void> {
      await tick(); // a real await: phases resume across microtasks
      try {
        yield inner();
      } finally {
        closed.push('outer');
      }
    }
    for await (const event of pumpPhases(outer())) {
      expect(event).toEqual(text('1'));
      break;
    }
    expect(closed).toEqual(['inner', 'outer']);
  });

  it('throws a consumer’s throw() into the phase that yielded the last event', async () => {
    async function* inner(): AsyncGenerator<PhaseStep, void> {
      await tick(); // a real await: phases resume across microtasks
      try {
        yield text('1');
      } catch (error) {
        yield text(`inner caught ${(error as Error).message}`); // the consumer's error below
      }
    }
    const pump = pumpPhases(
      (async function* (): AsyncGenerator<PhaseStep, void> {
        await tick(); // a real await: phases resume across microtasks
        yield inner();
      })(),
    );
    expect((await pump.next()).value).toEqual(text('1'));
    expect((await pump.throw(new Error('stop'))).value).toEqual(text('inner caught stop'));
    expect((await pump.next()).done).toBe(true);
  });
});
