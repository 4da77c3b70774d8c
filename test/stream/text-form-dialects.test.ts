import { describe, expect, it } from 'vitest';
import { ChunkAggregator } from '../../src/stream/chunk-aggregator.js';
import { ALL_DIALECTS } from '../../src/stream/dialects/index.js';
import { chunk, collect, text, textStream } from './collect.js';

const toolNames = new Set(['get_weather', 'get_time']);
const generateId = () => 'gen000001';

async function callsOf(pieces: readonly string[]) {
  const { turn } = await collect(textStream(pieces), {
    toolNames,
    generateId,
    dialects: ALL_DIALECTS,
  });
  return {
    text: turn?.text,
    calls: turn?.toolCalls.map((call) => [call.name, call.input]),
  };
}

/** The text events each piece gives at once (before the stream ends). */
function eventsPerPiece(pieces: readonly string[]) {
  const aggregator = new ChunkAggregator({ toolNames, generateId, dialects: ALL_DIALECTS });
  return pieces.map((content) => aggregator.push(chunk({ content })));
}

describe('text-form tool calls: what counts as a call', () => {
  it('reads Python literals in pythonic calls: strings with escapes, numbers, booleans, None, lists, dicts', async () => {
    expect(
      await callsOf([
        `[get_weather(city='St. John\\'s', days=-2.5, alerts=True, units=None, hours=[1, 2], at={"lat": 4.5e1})]`,
      ]),
    ).toEqual({
      text: '',
      calls: [
        [
          'get_weather',
          {
            city: "St. John's",
            days: -2.5,
            alerts: true,
            units: null,
            hours: [1, 2],
            at: { lat: 45 },
          },
        ],
      ],
    });
  });

  it('reads a Gemma tool_code block with print(…) and several calls', async () => {
    expect(
      await callsOf(['```tool_code\nprint(get_weather(city="Oslo"))\nget_time(zone="CET")\n```']),
    ).toEqual({
      text: '',
      calls: [
        ['get_weather', { city: 'Oslo' }],
        ['get_time', { zone: 'CET' }],
      ],
    });
  });

  it('reads DeepSeek V3.1 calls (NAME<｜tool▁sep｜>{…}, no fence) and several calls in one block', async () => {
    expect(
      await callsOf([
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Oslo"}<｜tool▁call▁end｜>',
        '<｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{"zone": "CET"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      ]),
    ).toEqual({
      text: '',
      calls: [
        ['get_weather', { city: 'Oslo' }],
        ['get_time', { zone: 'CET' }],
      ],
    });
  });

  it('reads several Llama JSON calls separated by ";" as the whole answer', async () => {
    expect(
      await callsOf([
        '{"name": "get_weather", "parameters": {"city": "Oslo"}}; {"type": "function", "name": "get_time", "parameters": {}}',
      ]),
    ).toEqual({
      text: '',
      calls: [
        ['get_weather', { city: 'Oslo' }],
        ['get_time', {}],
      ],
    });
  });

  it('shows untagged forms that are not the whole answer, and every form naming an unknown tool', async () => {
    const shown = [
      '{"name": "get_weather", "parameters": {"city": "Oslo"}} is how I would call it.',
      '[get_weather(city="Oslo")] is the pythonic form.',
      '[TOOL_CALLS]delete_all{"really": true}',
      '<|tool_call|>[{"name": "delete_all", "arguments": {}}]',
      '[rm(path="/")]',
      'functools[{"name": "delete_all", "arguments": {}}]',
      '```tool_code\ndelete_all()\n```',
      '```tool_code\nget_weather(city=input())\n```',
      '```python\n[get_weather(city="Oslo")]\n```',
      'Example:\n```\n[TOOL_CALLS]get_weather{"city": "Oslo"}\n```',
    ];
    for (const answer of shown) {
      expect(await callsOf([answer])).toEqual({ text: answer, calls: [] });
    }
  });

  it('releases an answer as soon as it cannot be a call (no flicker, no waiting for the end)', () => {
    expect(eventsPerPiece(['[1', '] Paris is sunny.'])).toEqual([
      [text('[1')],
      [text('] Paris is sunny.')],
    ]);
    expect(eventsPerPiece(['{"ci', 'ty": "Paris"}'])).toEqual([
      [text('{"ci')],
      [text('ty": "Paris"}')],
    ]);
    expect(eventsPerPiece(['[TOOL_CALLS]del', 'ete_all{}'])).toEqual([
      [text('[TOOL_CALLS]'), text('del')],
      [text('ete_all{}')],
    ]);
    // A possible call is held while it can be one.
    expect(eventsPerPiece(['[get_wea', 'ther(city="Oslo")]'])).toEqual([[], []]);
  });
});
