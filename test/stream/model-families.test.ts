import { describe, expect, it } from 'vitest';
import { ChunkAggregator } from '../../src/stream/chunk-aggregator.js';
import { ALL_DIALECTS } from '../../src/stream/dialects/index.js';
import type { StreamEvent } from '../../src/stream/assistant-turn.js';
import { modelFamily, startsInReasoning } from '../../src/stream/model-family.js';
import {
  modelFamilyReasoningStreams,
  modelFamilyStreams,
} from '../fixtures/local-servers/model-families.js';
import type { RecordedStream } from '../support/recorded-streams.js';
import { chunk, collect, reasoning, text, textStream } from './collect.js';
import { replay } from './collect.js';

const toolNames = new Set(['get_weather', 'get_time']);
const generateId = () => 'gen000001';

/** The content a fixture streams, joined (its SSE body holds each delta as JSON). */
function contentOf(stream: RecordedStream): string {
  return stream.sse
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => {
      const parsed = JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] };
      return parsed.choices[0]?.delta.content ?? '';
    })
    .join('');
}

/** Runs `pieces` through one aggregator; `end`: the stream completed, else it was cut. */
function run(stream: RecordedStream, pieces: readonly string[], end: boolean) {
  const aggregator = new ChunkAggregator({
    toolNames: new Set(stream.request.tools ?? []),
    generateId,
    dialects: ALL_DIALECTS,
    ...(stream.request.model === undefined ? {} : { model: stream.request.model }),
  });
  const events: StreamEvent[] = [];
  for (const content of pieces) events.push(...aggregator.push(chunk({ content })));
  if (!end) return { events: [...events, ...aggregator.flush()], turn: undefined };
  aggregator.push(chunk({}, 'stop'));
  const result = aggregator.end();
  return { events: [...events, ...result.events], turn: result.turn };
}

const calls = (turn: { toolCalls: { name: string; input: unknown }[] } | undefined) =>
  turn?.toolCalls.map((call) => ({ name: call.name, arguments: call.input }));

describe.each([...modelFamilyStreams, ...modelFamilyReasoningStreams])('$name', (stream) => {
  const content = contentOf(stream);
  const expected = stream.expect.toolCalls.map(({ name, arguments: args }) => ({
    name,
    arguments: args,
  }));

  it('reads the same text, reasoning and calls at every split point', () => {
    for (let at = 0; at <= content.length; at++) {
      const { turn } = run(stream, [content.slice(0, at), content.slice(at)], true);
      expect({ at, text: turn?.text, reasoning: turn?.reasoning, calls: calls(turn) }).toEqual({
        at,
        text: stream.expect.text,
        reasoning: stream.expect.reasoning,
        calls: expected,
      });
    }
  });

  it('cut anywhere (inside the markup too), runs no call and loses no text', () => {
    for (let at = 0; at <= content.length; at++) {
      const { events } = run(stream, [content.slice(0, at)], false);
      expect(events.some((event) => event.type === 'tool_use')).toBe(false);
      const shown = replay(events);
      // Everything that came is shown as text or reasoning: the markup of unrun calls too.
      expect((shown.text + shown.reasoning).replace(/\s/g, '').length).toBeGreaterThanOrEqual(
        content
          .slice(0, at)
          .replace(
            /<\/?think>|<\/?seed:think>|\[\/?THINK\]|<\|channel>thought|<channel\|>|<\|inner_(?:prefix|suffix)\|>/g,
            '',
          )
          .replace(/\s/g, '').length,
      );
    }
  });
});

describe('reasoning that starts mid-thought (issue table)', () => {
  it('reads the first row right: answer as text, thought as reasoning', async () => {
    const { events, turn } = await collect(
      textStream(['Let me think about', ' this carefully.\n</think>\n\nThe answer', ' is 4.']),
      { model: 'qwen3.5-35b-a3b' },
    );

    expect(events).toEqual([
      reasoning('Let me think about this carefully.\n'),
      text('The answer'),
      text(' is 4.'),
    ]);
    expect(turn).toMatchObject({
      text: 'The answer is 4.',
      reasoning: 'Let me think about this carefully.\n',
    });
  });

  it.each([
    ['<seed:think>pondering</seed:think>The answer is 4.'],
    ['[THINK]pondering[/THINK]The answer is 4.'],
    ['<|channel>thought\npondering<channel|>The answer is 4.'],
    ['<|inner_prefix|>pondering<|inner_suffix|>The answer is 4.'],
  ])('splits %j into reasoning and answer', async (content) => {
    const { turn } = await collect(textStream([content]));

    expect(turn).toMatchObject({ text: 'The answer is 4.', reasoning: 'pondering' });
  });

  it('streams a long answer with no tag after the bounded hold, and a short one at its end', () => {
    const aggregator = new ChunkAggregator({ startsInReasoning: true });
    const shownAfter: number[] = [];
    let sent = 0;
    for (let index = 0; index < 200; index++) {
      sent += 'word '.length;
      if (aggregator.push(chunk({ content: 'word ' })).length > 0) shownAfter.push(sent);
    }
    // Held no longer than the bound (512 characters plus the longest closing tag).
    expect(shownAfter[0]).toBeGreaterThan(512);
    expect(shownAfter[0]).toBeLessThanOrEqual(512 + '<|inner_suffix|>'.length + 5);
    // Then every delta shows at once.
    expect(shownAfter.length).toBe(200 - shownAfter[0]! / 5 + 1);
    expect(aggregator.end().turn).toMatchObject({ text: 'word '.repeat(200), reasoning: '' });
  });

  it('does not hold when the server splits reasoning itself', async () => {
    const { events } = await collect(
      [chunk({ reasoning_content: 'Plan.' }), chunk({ content: 'Answer' }), chunk({}, 'stop')],
      { model: 'qwq-32b' },
    );

    expect(events).toEqual([reasoning('Plan.'), text('Answer')]);
  });

  it('knows which models start mid-thought, and can be told', async () => {
    expect(startsInReasoning('Qwen/Qwen3-4B-Thinking-2507')).toBe(true);
    expect(startsInReasoning('qwq:32b')).toBe(true);
    expect(startsInReasoning('deepseek-r1:14b')).toBe(true);
    expect(startsInReasoning('MiniMax-M2')).toBe(true);
    expect(startsInReasoning('Qwen3-Coder-30B-A3B-Instruct')).toBe(false);
    expect(startsInReasoning('qwen3-4b-instruct-2507')).toBe(false);
    expect(startsInReasoning('gemma-4-e4b-it')).toBe(false);
    const told = await collect(textStream(['hm</think>4']), {
      model: 'my-finetune',
      startsInReasoning: true,
    });
    expect(told.events).toEqual([reasoning('hm'), text('4')]);
  });
});

describe('the family known from the model name is read first', () => {
  const seedBare = "<function=get_weather>\n<parameter=at>{'lat': 1}</parameter>\n</function>";

  it('reads a bare <function=…> as Seed-OSS (Python values to JSON) only for Seed-OSS', async () => {
    const asSeed = await collect(textStream([seedBare]), {
      toolNames,
      dialects: ALL_DIALECTS,
      model: 'ByteDance-Seed/Seed-OSS-36B-Instruct',
    });
    const asQwen = await collect(textStream([seedBare]), { toolNames, dialects: ALL_DIALECTS });

    expect(asSeed.turn?.toolCalls[0]?.input).toEqual({ at: '{"lat":1}' });
    expect(asQwen.turn?.toolCalls[0]?.input).toEqual({ at: "{'lat': 1}" });
  });

  it('names families from model names', () => {
    expect(modelFamily('unsloth/GLM-4.7-Flash-GGUF')).toBe('glm');
    expect(modelFamily('Qwen/Qwen3-Coder-Next')).toBe('qwen');
    expect(modelFamily('deepseek-r1-distill-qwen-7b')).toBe('deepseek');
    expect(modelFamily('LiquidAI/LFM2.5-1.2B-Instruct')).toBe('lfm2');
    expect(modelFamily('gemma-4-e4b-it')).toBe('gemma');
    expect(modelFamily('my-model')).toBeUndefined();
  });
});
