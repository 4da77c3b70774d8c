import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentError, isAgentError } from '../../src/errors/agent-error.js';
import { localServerStreams } from '../fixtures/local-servers/index.js';
import { loadRecordedStreams } from '../support/recorded-streams.js';
import type { Collected } from './collect.js';
import { replay } from './collect.js';
import { expectAggregated, throughTransport } from './through-transport.js';

const fixtures = new Map(
  [...loadRecordedStreams(), ...localServerStreams].map((stream) => [
    stream.name,
    {
      stream,
      bytes: new TextEncoder().encode(stream.sse),
      toolNames: new Set(stream.request.tools ?? []),
    },
  ]),
);
/** A fixture name: drawn by name so a counterexample prints short. */
const fixture = fc.constantFrom(...fixtures.keys());
function fixtureNamed(name: string) {
  const found = fixtures.get(name);
  if (found === undefined) throw new Error(`no fixture ${name}`);
  return found;
}
/** Cut points as fractions of the body, so small and large bodies are both cut. */
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 });
const offsetsIn = (length: number, fractions: readonly number[]) =>
  fractions.map((fraction) => Math.floor(fraction * length));

/** Events, then at most one error, and that error an AgentError. */
function expectWellFormed(collected: Collected): void {
  const { events, turn, error } = collected;
  expect(turn === undefined).toBe(error !== undefined);
  if (error !== undefined) {
    expect(error).toBeInstanceOf(AgentError);
    expect(isAgentError(error)).toBe(true);
  }
  for (const event of events)
    expect(['text', 'reasoning', 'text_was_reasoning', 'tool_use', 'tool_use_error']).toContain(
      event.type,
    );
  // Applied in order, the events never move text that was not shown (replay throws).
  replay(events);
}

const textOf = (collected: Collected) =>
  collected.events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');

describe('any fixture stream through transport + aggregator (property)', () => {
  it('aggregates to the same result however the bytes are chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fixture, cuts, async (name, offsets) => {
        const { stream, bytes, toolNames } = fixtureNamed(name);
        const collected = await throughTransport(bytes, {
          toolNames,
          splitEvery: offsetsIn(bytes.length, offsets),
        });

        expectAggregated(collected, stream.expect);
      }),
      { numRuns: 300 },
    );
  });

  it('ends with events and at most one AgentError when truncated at any byte, never inventing text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fixture,
        fc.double({ min: 0, max: 1, noNaN: true }),
        cuts,
        async (name, where, offsets) => {
          const { stream, bytes, toolNames } = fixtureNamed(name);
          const cut = Math.floor(where * bytes.length);

          const collected = await throughTransport(bytes.slice(0, cut), {
            toolNames,
            splitEvery: offsetsIn(cut, offsets),
          });

          expectWellFormed(collected);
          // Hidden markup and a lone </think> change what text means once the rest arrives.
          // ('tool_call>': a fixture may cut the opening tag across deltas, `<tool` + `_call>`.)
          if (!stream.sse.includes('tool_call>') && stream.expect.eventText === undefined) {
            expect(stream.expect.text.startsWith(textOf(collected))).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ends with events and at most one AgentError when bytes are corrupted', async () => {
    const corruption = fc.array(
      fc.record({
        at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        byte: fc.integer({ min: 0, max: 255 }),
      }),
      {
        minLength: 1,
        maxLength: 6,
      },
    );
    await fc.assert(
      fc.asyncProperty(fixture, corruption, cuts, async (name, changes, offsets) => {
        const { bytes, toolNames } = fixtureNamed(name);
        const corrupted = bytes.slice();
        for (const change of changes)
          corrupted[Math.floor(change.at * corrupted.length)] = change.byte;

        const collected = await throughTransport(corrupted, {
          toolNames,
          splitEvery: offsetsIn(corrupted.length, offsets),
        });

        expectWellFormed(collected);
      }),
      { numRuns: 300 },
    );
  });
});
