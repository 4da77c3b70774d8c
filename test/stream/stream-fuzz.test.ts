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
      model: stream.request.model === undefined ? {} : { model: stream.request.model },
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
/**
 * A fraction in [0, 1], uniform (fast-check's doubles favour 0, 1 and tiny values, which
 * would rarely cut a body in its middle).
 */
const fraction = fc.integer({ min: 0, max: 10_000 }).map((value) => value / 10_000);
/** Cut points as fractions of the body, so small and large bodies are both cut. */
const cuts = fc.array(fraction, { maxLength: 40 });
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

const callsOf = (collected: Collected) =>
  collected.events.flatMap((event) =>
    event.type === 'tool_use' || event.type === 'tool_use_error'
      ? [{ id: event.type === 'tool_use' ? event.id : event.toolUseId }]
      : [],
  );

const sortedChars = (text: string) => [...text].sort().join('');

/** Whether `a` can be read from `b` by leaving characters out (text hidden, none added). */
function isSubsequence(a: string, b: string): boolean {
  let index = 0;
  for (let at = 0; at < b.length && index < a.length; at++)
    if (a.charCodeAt(index) === b.charCodeAt(at)) index++;
  return index === a.length;
}

const hidden = new Map<string, Promise<boolean>>();
/** Whether the whole fixture shows less text once its tools are registered (calls read from text). */
function hidesText(name: string): Promise<boolean> {
  let known = hidden.get(name);
  if (known === undefined) {
    const { stream, bytes } = fixtureNamed(name);
    known = throughTransport(bytes, fixtureNamed(name).model).then(
      (raw) => raw.turn?.text !== stream.expect.text,
    );
    hidden.set(name, known);
  }
  return known;
}

const textOf = (collected: Collected) =>
  collected.events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');

describe('any fixture stream through transport + aggregator (property)', () => {
  it('aggregates to the same result however the bytes are chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fixture, cuts, async (name, offsets) => {
        const { stream, bytes, toolNames, model } = fixtureNamed(name);
        const collected = await throughTransport(bytes, {
          toolNames,
          ...model,
          splitEvery: offsetsIn(bytes.length, offsets),
        });

        expectAggregated(collected, stream.expect);
      }),
      { numRuns: 300 },
    );
    // 300 parses of fixtures up to a few KB: about 1 s on a quiet machine, past vitest's 5 s
    // default once at load 15 with no fault found; the bound is for a hang, not a speed check.
  }, 30_000);

  it('ends with events and at most one AgentError when truncated at any byte, never inventing text', async () => {
    await fc.assert(
      fc.asyncProperty(fixture, fraction, cuts, async (name, where, offsets) => {
        const { stream, bytes, toolNames, model } = fixtureNamed(name);
        const cut = Math.floor(where * bytes.length);

        const collected = await throughTransport(bytes.slice(0, cut), {
          toolNames,
          ...model,
          splitEvery: offsetsIn(cut, offsets),
        });

        expectWellFormed(collected);
        // The same bytes with no tool registered: every text-form call left as text.
        const raw = await throughTransport(bytes.slice(0, cut), {
          ...model,
          splitEvery: offsetsIn(cut, offsets),
        });
        const shown = textOf(collected);
        const calls = callsOf(collected);
        // No duplicate call: never more calls than the whole stream has, never an id twice.
        expect(calls.length).toBeLessThanOrEqual(
          stream.expect.toolCalls.length + (stream.expect.invalidToolCalls?.length ?? 0),
        );
        expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
        // Text never lost: a failed stream runs no call, so it shows all the text that came
        // (markup read as calls is released after what was shown); a complete one hides only
        // the markup of calls it reports.
        if (collected.error !== undefined) {
          expect(sortedChars(shown)).toBe(sortedChars(textOf(raw)));
        } else {
          expect(isSubsequence(shown, textOf(raw))).toBe(true);
          if (calls.length === 0) expect(shown).toBe(textOf(raw));
        }
        // Never invented: what shows is the start of the whole answer — unless markup or a
        // lone </think> changes what text means once the rest arrives, or the cut fell in a
        // possible tag (`<thi`, `[THI`), released as text.
        if (
          !(await hidesText(name)) &&
          stream.expect.eventText === undefined &&
          !/(?:<[^>]*|\[[^\]]*)$/.test(shown)
        ) {
          expect(stream.expect.text.startsWith(shown)).toBe(true);
        }
      }),
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
        const { bytes, toolNames, model } = fixtureNamed(name);
        const corrupted = bytes.slice();
        for (const change of changes)
          corrupted[Math.floor(change.at * corrupted.length)] = change.byte;

        const collected = await throughTransport(corrupted, {
          toolNames,
          ...model,
          splitEvery: offsetsIn(corrupted.length, offsets),
        });

        expectWellFormed(collected);
      }),
      { numRuns: 300 },
    );
  });
});
