import { describe, expect, it } from 'vitest';
import { ChunkAggregator } from '../../src/stream/chunk-aggregator.js';
import { ALL_DIALECTS } from '../../src/stream/dialects/index.js';
import { startsInReasoning } from '../../src/stream/model-family.js';
import { REASONING_TAGS } from '../../src/stream/reasoning-tags.js';
import {
  TEMPLATE_TAGS,
  templateStartsInReasoning,
} from '../../src/stream/template-starts-in-reasoning.js';
import { chunk, collect, reasoning, text, textStream } from './collect.js';

// Issue 28: where "the model starts mid-thought" comes from, in order: the app's option,
// what the server's template or capabilities say, the model's name.

/** The generation-prompt ends of real chat templates (the part after `add_generation_prompt`). */
const TEMPLATES = {
  // zai-org/GLM-4.7 chat_template.jinja: thinking is on unless the request turns it off.
  glm47:
    "{%- endfor -%}\n{%- if add_generation_prompt -%}\n    <|assistant|>{{- '</think>' if (enable_thinking is defined and not enable_thinking) else '<think>' -}}\n{%- endif -%}",
  // zai-org/GLM-4.5: the model opens <think> itself; an empty block only when turned off.
  glm45:
    "{%- if add_generation_prompt -%}\n    <|assistant|>{{- '\\n<think></think>' if (enable_thinking is defined and not enable_thinking) else '' -}}\n{%- endif -%}",
  // Qwen3 (hybrid): the model opens <think> itself; an empty block only when turned off.
  qwen3:
    "{%- if add_generation_prompt %}\n    {{- '<|im_start|>assistant\\n' }}\n    {%- if enable_thinking is defined and enable_thinking is false %}\n        {{- '<think>\\n\\n</think>\\n\\n' }}\n    {%- endif %}\n{%- endif %}",
  // Qwen3-4B-Thinking-2507: the prompt always ends with <think>.
  qwen3Thinking:
    "{%- if add_generation_prompt %}\n    {{- '<|im_start|>assistant\\n<think>\\n' }}\n{%- endif %}",
  // DeepSeek-R1.
  deepseekR1: "{% if add_generation_prompt %}{{'<｜Assistant｜><think>\\n'}}{% endif %}",
  // MiniMax-M2.
  minimaxM2:
    "{%- if add_generation_prompt -%}\n{{- ']~b]ai' ~ '\\n' ~ '<think>' ~ '\\n' }}\n{%- endif -%}",
  // An Apertus template that opens its thought in the prompt (llama.cpp common_chat_params_init_apertus
  // checks for a prompt ending in <|inner_prefix|>).
  apertusThinking:
    "{%- if add_generation_prompt %}{{- '<|assistant_start|>' }}{%- if enable_thinking %}{{- '<|inner_prefix|>' }}{%- endif %}{%- endif %}",
  // Llama 3: no thought at all.
  llama3:
    "{%- if add_generation_prompt %}\n    {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}\n{%- endif %}",
};

describe('name patterns', () => {
  it('know GLM-4.7 and GLM-5 start mid-thought (their template ends the prompt with <think>)', () => {
    expect(startsInReasoning('GLM-4.7-Flash')).toBe(true);
    expect(startsInReasoning('unsloth/GLM-4.7-GGUF')).toBe(true);
    expect(startsInReasoning('zai-org/GLM-5')).toBe(true);
    expect(startsInReasoning('glm-4.6')).toBe(false);
    expect(startsInReasoning('GLM-4.5-Air')).toBe(false);
    // Apertus thinks only when asked: a hold by name would delay every plain answer.
    expect(startsInReasoning('swiss-ai/Apertus-8B-Instruct-2509')).toBe(false);
  });
});

describe('the chat template', () => {
  it.each([
    ['glm47', true],
    ['qwen3Thinking', true],
    ['deepseekR1', true],
    ['minimaxM2', true],
    ['apertusThinking', true],
    ['glm45', false],
    ['qwen3', false],
    ['llama3', false],
  ] as const)('%s: the generation prompt leaves a thought open → %s', (name, expected) => {
    expect(templateStartsInReasoning(TEMPLATES[name])).toBe(expected);
  });

  it('knows every reasoning tag the stream splits (its copy of the list is the list)', () => {
    expect(TEMPLATE_TAGS).toEqual(REASONING_TAGS.map((tags) => [tags.open, tags.close]));
  });

  it('says nothing about a template without a generation prompt', () => {
    expect(templateStartsInReasoning('{{ messages }}')).toBeUndefined();
    expect(templateStartsInReasoning('')).toBeUndefined();
  });
});

describe('the order: option > server > name', () => {
  const thought = ['The user', ' wants 4.', '</think>', '4'];

  it('the server saying so holds for a model no name pattern knows', async () => {
    const { events } = await collect(textStream(thought), {
      model: 'local-model.gguf',
      startsInReasoning: true,
    });
    expect(events).toEqual([reasoning('The user wants 4.'), text('4')]);
  });

  it('the server saying no beats the name (Ollama moves the thought out itself)', async () => {
    const answer = await collect(textStream(['The', ' answer', ' is 4.']), {
      model: 'qwen3.5-35b-a3b',
      startsInReasoning: false,
    });
    // Not held: each delta shows as it comes.
    expect(answer.events).toEqual([text('The'), text(' answer'), text(' is 4.')]);
  });

  it("the app's option beats the server", async () => {
    const { events } = await collect(textStream(['The', ' answer']), {
      model: 'local-model.gguf',
      startsInReasoning: true,
      textMarkup: { startsInReasoning: false },
    });
    expect(events).toEqual([text('The'), text(' answer')]);
  });

  it('GLM-4.7 with thinking turned off (told so) reads text before a call as text', async () => {
    const content =
      'Checking.<tool_call>get_time<arg_key>zone</arg_key><arg_value>CET</arg_value></tool_call>';
    const off = await collect(textStream([content]), {
      model: 'GLM-4.7-Flash',
      toolNames: new Set(['get_time']),
      dialects: ALL_DIALECTS,
      textMarkup: { startsInReasoning: false },
    });
    const on = await collect(textStream([content]), {
      model: 'GLM-4.7-Flash',
      toolNames: new Set(['get_time']),
      dialects: ALL_DIALECTS,
    });
    expect(off.turn).toMatchObject({ text: 'Checking.', reasoning: '' });
    // Thinking on (the template's default): vLLM's glm47 parser starts in reasoning and a
    // <tool_call> ends it.
    expect(on.turn).toMatchObject({ text: '', reasoning: 'Checking.' });
    expect(on.turn?.toolCalls.map((call) => call.name)).toEqual(['get_time']);
  });
});

describe('a reasoning field drops the hold', () => {
  it('at once, even after content was held', () => {
    const aggregator = new ChunkAggregator({ startsInReasoning: true });
    expect(aggregator.push(chunk({ content: '\n' }))).toEqual([]);
    expect(aggregator.push(chunk({ reasoning_content: 'Plan.' }))).toEqual([
      text('\n'),
      reasoning('Plan.'),
    ]);
    // Content after reasoning-field deltas is the answer: shown as it comes.
    expect(aggregator.push(chunk({ content: 'The' }))).toEqual([text('The')]);
    expect(aggregator.push(chunk({ content: ' answer' }))).toEqual([text(' answer')]);
  });

  it.each([
    ['reasoning', { reasoning: 'Plan.' }],
    ['a thinking content part', { content: [{ type: 'thinking', thinking: 'Plan.' }] }],
  ])('from %s', (_name, delta) => {
    const aggregator = new ChunkAggregator({ startsInReasoning: true });
    aggregator.push(chunk(delta));
    expect(aggregator.push(chunk({ content: 'The' }))).toEqual([text('The')]);
  });
});
