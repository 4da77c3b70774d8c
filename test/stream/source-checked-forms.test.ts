/**
 * Forms the servers' own parsers accept that our dialects first missed (issue 28: each
 * family checked against vLLM and llama.cpp). Every case is read at every split point.
 */
import { describe, expect, it } from 'vitest';
import { ChunkAggregator } from '../../src/stream/chunk-aggregator.js';
import { ALL_DIALECTS } from '../../src/stream/dialects/index.js';
import { chunk } from './collect.js';

const toolNames = new Set(['get_weather', 'get_time']);

/** The text, reasoning and calls `content` gives, cut in two at `at`. */
function read(content: string, at: number, model?: string) {
  const aggregator = new ChunkAggregator({
    toolNames,
    generateId: () => 'gen000001',
    dialects: ALL_DIALECTS,
    ...(model === undefined ? {} : { model }),
  });
  aggregator.push(chunk({ content: content.slice(0, at) }));
  aggregator.push(chunk({ content: content.slice(at) }));
  aggregator.push(chunk({}, 'stop'));
  const { turn } = aggregator.end();
  return {
    text: turn.text,
    reasoning: turn.reasoning,
    calls: turn.toolCalls.map((call) => [call.name, call.input]),
  };
}

/** Checks that `content` reads as `expected` however the stream cuts it. */
function expectEverySplit(
  content: string,
  expected: ReturnType<typeof read>,
  model?: string,
): void {
  for (let at = 0; at <= content.length; at++)
    expect({ at, ...read(content, at, model) }).toEqual({ at, ...expected });
}

describe('a call opened inside an unclosed thought ends the thought', () => {
  it('Gemma 4: <|tool_call> straight after <|channel>thought (vLLM gemma4: REASONING → TOOL_START)', () => {
    expectEverySplit(
      '<|channel>thought\nThe user wants Paris.<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>',
      { text: '', reasoning: 'The user wants Paris.', calls: [['get_weather', { city: 'Paris' }]] },
      'gemma-4-26b-a4b-it',
    );
  });

  it('GLM-4.7: <tool_call> before </think> (vLLM glm47_moe: REASONING → TOOL_START)', () => {
    expectEverySplit(
      '<think>Need the time.<tool_call>get_time<arg_key>zone</arg_key><arg_value>CET</arg_value></tool_call>',
      { text: '', reasoning: 'Need the time.', calls: [['get_time', { zone: 'CET' }]] },
      'GLM-4.7-Flash',
    );
  });

  it('MiniMax M2: <minimax:tool_call> before </think> (vLLM minimax_m2: REASONING → TOOL_START)', () => {
    expectEverySplit(
      '<think>Need the time.\n<minimax:tool_call>\n<invoke name="get_time">\n<parameter name="zone">CET</parameter>\n</invoke>\n</minimax:tool_call>',
      { text: '', reasoning: 'Need the time.\n', calls: [['get_time', { zone: 'CET' }]] },
      'MiniMax-M2',
    );
  });

  it('a thought that only mentions <tool_call> and then closes stays reasoning', () => {
    expectEverySplit('<think>I could use <tool_call> here.</think>Hi', {
      text: 'Hi',
      reasoning: 'I could use <tool_call> here.',
      calls: [],
    });
  });
});

describe('MiniMax M2 names and parameters as vLLM minimax_m2 reads them', () => {
  it("reads single-quoted and unquoted names (<invoke name='…'>, <parameter name=…>)", () => {
    expectEverySplit(
      "<minimax:tool_call>\n<invoke name='get_weather'>\n<parameter name='city'>Paris</parameter>\n<parameter name=days>3</parameter>\n</invoke>\n<invoke name=get_time>\n<parameter name=zone>CET</parameter>\n</invoke>\n</minimax:tool_call>",
      {
        text: '',
        reasoning: '',
        calls: [
          ['get_weather', { city: 'Paris', days: '3' }],
          ['get_time', { zone: 'CET' }],
        ],
      },
    );
  });

  it('ends a parameter left unclosed at the next <parameter name=', () => {
    expectEverySplit(
      '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris\n<parameter name="days">3</parameter>\n</invoke>\n</minimax:tool_call>',
      { text: '', reasoning: '', calls: [['get_weather', { city: 'Paris', days: '3' }]] },
    );
  });
});

describe('Qwen3-Coder / Qwen3.5 XML as vLLM qwen3_coder reads it', () => {
  it('reads several <function=…> in one <tool_call> block', () => {
    expectEverySplit(
      '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n<function=get_time>\n<parameter=zone>\nCET\n</parameter>\n</function>\n</tool_call>',
      {
        text: '',
        reasoning: '',
        calls: [
          ['get_weather', { city: 'Paris' }],
          ['get_time', { zone: 'CET' }],
        ],
      },
    );
  });
});

describe('LFM2 as llama.cpp (common/chat-parsers/lfm2.cpp) and vLLM lfm2 read it', () => {
  it('reads the JSON list form <|tool_call_start|>[{"name", "arguments", "id"}]<|tool_call_end|>', () => {
    expectEverySplit(
      '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "call_1"}, {"name": "get_time", "arguments": {"zone": "CET"}}]<|tool_call_end|>',
      {
        text: '',
        reasoning: '',
        calls: [
          ['get_weather', { city: 'Paris' }],
          ['get_time', { zone: 'CET' }],
        ],
      },
      'LFM2-1.2B',
    );
  });

  it('runs the calls when the model writes its answer straight after <|tool_call_end|>', () => {
    // LFM2's own template example: `…<|tool_call_end|>Checking the current status…<|im_end|>`.
    expectEverySplit(
      '<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>Checking the weather.',
      { text: 'Checking the weather.', reasoning: '', calls: [['get_weather', { city: 'Paris' }]] },
      'LFM2.5-1.2B-Instruct',
    );
  });
});

describe('Seed-OSS as llama.cpp (common/chat-parsers/seed-oss.cpp) reads it', () => {
  it('lets the calls stand when <seed:eos> follows them', () => {
    expectEverySplit(
      '<seed:tool_call>\n<function=get_time>\n<parameter=zone>CET</parameter>\n</function>\n</seed:tool_call><seed:eos>',
      { text: '<seed:eos>', reasoning: '', calls: [['get_time', { zone: 'CET' }]] },
      'Seed-OSS-36B-Instruct',
    );
  });
});

describe('Gemma 4 arguments as llama.cpp (common/parsers/gemma4.cpp) and vLLM gemma4 read them', () => {
  it('reads a key that is not an identifier (everything up to its colon)', () => {
    expectEverySplit(
      '<|tool_call>call:get_weather{city name:<|"|>Paris<|"|>,$unit:<|"|>C<|"|>}<tool_call|>',
      {
        text: '',
        reasoning: '',
        calls: [['get_weather', { 'city name': 'Paris', $unit: 'C' }]],
      },
      'gemma-4-e4b-it',
    );
  });
});
