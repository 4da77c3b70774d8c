import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkAggregator, STREAM_ENDED } from '../../src/stream/chunk-aggregator.js';
import { ALL_DIALECTS } from '../../src/stream/dialects/index.js';
import { STREAM_DONE, chunk, reasoning, replay, text } from './collect.js';

describe('ChunkAggregator (the synchronous core)', () => {
  it('returns each chunk’s events from push and settles calls and the turn in end', () => {
    const aggregator = new ChunkAggregator({ generateId: () => 'id0000001' });

    const first = aggregator.push(chunk({ role: 'assistant', reasoning_content: 'r' }));
    const second = aggregator.push(
      chunk({ content: 'hi', tool_calls: [{ index: 0, function: { name: 'f' } }] }),
    );
    const completeBeforeFinish = aggregator.complete;
    aggregator.push(chunk({}, 'tool_calls'));
    const end = aggregator.end();

    expect(first).toEqual([reasoning('r')]);
    expect(second).toEqual([text('hi')]);
    expect(completeBeforeFinish).toBe(false);
    expect(aggregator.complete).toBe(true);
    expect(end.events).toEqual([{ type: 'tool_use', id: 'id0000001', name: 'f', input: {} }]);
    expect(end.turn).toMatchObject({ text: 'hi', reasoning: 'r', finishReason: 'tool_calls' });
    expect(aggregator.end()).toBe(end);
  });

  it('is complete after STREAM_DONE and ignores everything after it', () => {
    const aggregator = new ChunkAggregator();

    const done = aggregator.push(STREAM_DONE);
    const late = aggregator.push(chunk({ content: 'late' }, 'stop'));

    expect(done).toBe(STREAM_ENDED);
    expect(aggregator.complete).toBe(true);
    expect(late).toEqual([]);
    expect(aggregator.end().turn).toMatchObject({
      text: '',
      finishReason: 'stop',
      rawFinishReason: null,
    });
  });

  it('gives the same turn however content with tags and markup is cut into deltas (property)', () => {
    const token = fc.constantFrom(
      '<think>',
      '</think>',
      '<',
      '<thi',
      'nk>',
      '</',
      'a',
      ' ',
      '\n',
      'x<y',
      '<tool_call>',
      '{"name":"f","arguments":{"n":1}}',
      '</tool_call>',
      'é👋',
      // gpt-oss harmony markup left in content
      '<|channel|>',
      '<|message|>',
      '<|end|>',
      '<|start|>assistant',
      '<|call|>',
      '<|',
      'analysis',
      'final',
      ' to=functions.f',
      // tool calls written as text in the other dialects, and code fences around them
      '[TOOL_CALLS]',
      'f[ARGS]',
      '[CALL_ID]abc',
      '{"n":1}',
      '[{"name":"f","arguments":{}}]',
      '<|python_tag|>',
      '<|python_start|>',
      '<|python_end|>',
      '<|tool_call|>',
      'functools',
      '[f(n=1)]',
      'f(n="x")',
      '```',
      '```tool_code\n',
      '<｜tool▁calls▁begin｜>',
      '<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n',
      '<｜tool▁call▁end｜>',
      '<｜tool▁calls▁end｜>',
      '<function=f>',
      '<parameter=n>1</parameter>',
      '</function>',
      '[',
      '{',
      '"name"',
      ':"f"',
    );
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (tokens, cutSeeds) => {
          const content = tokens.join('');
          const cuts = [...new Set(cutSeeds.map((seed) => seed % (content.length + 1)))].sort(
            (a, b) => a - b,
          );
          const pieces = [0, ...cuts, content.length]
            .slice(1)
            .map((end, index, ends) => content.slice(index === 0 ? 0 : ends[index - 1], end));

          const whole = run([content]);
          const split = run(pieces);

          expect(split.turn).toEqual(whole.turn);
          // Every delta is reported once: applied in order (`text_was_reasoning` moving what
          // a stream that started in reasoning showed as text), the events add up to the turn.
          const replayed = replay(split.events);
          expect(replayed.text).toBe(split.turn.text);
          // Markup of a call read from text, then more text, then a lone </think>: the events
          // add that markup after the text they move to reasoning; the turn keeps the order.
          if (movedAfterHiddenMarkup(split.events)) {
            expect([...replayed.reasoning].sort()).toEqual([...split.turn.reasoning].sort());
          } else {
            expect(replayed.reasoning).toBe(split.turn.reasoning);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** A `text_was_reasoning` whose moved text came after markup the events never showed. */
function movedAfterHiddenMarkup(events: readonly { type: string }[]): boolean {
  return events.some(
    (event, index) =>
      event.type === 'text_was_reasoning' && events[index + 1]?.type === 'reasoning',
  );
}

function run(pieces: readonly string[]) {
  const aggregator = new ChunkAggregator({
    toolNames: new Set(['f']),
    dialects: ALL_DIALECTS,
    generateId: () => 'id0000001',
  });
  const events = pieces.flatMap((content) => [...aggregator.push(chunk({ content }))]);
  aggregator.push(chunk({}, 'stop'));
  const end = aggregator.end();
  return { events: [...events, ...end.events], turn: end.turn };
}
