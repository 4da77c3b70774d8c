import { describe, expect, it } from 'vitest';
import { ALL_DIALECTS } from '../../src/stream/dialects/index.js';
import type { ToolUseBlock } from '../../src/types/events.js';
import { STREAM_DONE, chunk, collect, reasoning, text, textStream } from './collect.js';

const toolNames = new Set(['get_weather']);
const generateId = () => 'gen000001';
const weather = (city: string): ToolUseBlock => ({
  type: 'tool_use',
  id: 'gen000001',
  name: 'get_weather',
  input: { city },
  // Read from the text, not sent as a structured call: marked so a UI or hook can tell.
  recoveredFromText: true,
});

describe('aggregateStream: tool calls written as <tool_call> markup (Hermes/Qwen, server parser failed)', () => {
  it('turns markup for a registered tool into a tool_use and hides it, cut at awkward places', async () => {
    const { events, turn } = await collect(
      textStream([
        'Let me check.',
        '\n<tool',
        '_call>\n{"name": "get_weather", ',
        '"arguments": {"city": "Oslo"}}\n</tool_',
        'call>',
        '\nDone.',
      ]),
      { toolNames, generateId, dialects: ALL_DIALECTS },
    );

    expect(events).toEqual([text('Let me check.'), text('\n'), text('\nDone.'), weather('Oslo')]);
    expect(turn).toMatchObject({
      text: 'Let me check.\n\nDone.',
      toolCalls: [weather('Oslo')],
      finishReason: 'tool_calls',
      rawFinishReason: 'stop',
    });
  });

  it('releases markup naming an unregistered tool as ordinary text', async () => {
    const markup = '<tool_call>{"name": "rm_rf", "arguments": {}}</tool_call>';
    const { events, turn } = await collect(
      textStream(['A ', markup.slice(0, 20), markup.slice(20), ' B']),
      { toolNames, generateId, dialects: ALL_DIALECTS },
    );

    expect(events).toEqual([text('A '), text(markup), text(' B')]);
    expect(turn).toMatchObject({ text: `A ${markup} B`, toolCalls: [], finishReason: 'stop' });
  });

  it('releases markup with bad JSON as ordinary text', async () => {
    const markup = '<tool_call>{"name": "get_weather", "arguments": {"city": }</tool_call>';
    const { turn } = await collect(textStream([markup]), {
      toolNames,
      generateId,
      dialects: ALL_DIALECTS,
    });

    expect(turn).toMatchObject({ text: markup, toolCalls: [], invalidToolCalls: [] });
  });

  it('leaves markup alone when no tools are registered', async () => {
    const markup = '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>';
    const { events } = await collect(textStream([markup]), { dialects: ALL_DIALECTS });

    expect(events).toEqual([text(markup)]);
  });

  it('leaves markup alone without dialects (aggregateStream alone; the loop passes them)', async () => {
    const markup = '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>';
    const { events } = await collect(textStream([markup]), { toolNames });

    expect(events).toEqual([text(markup)]);
  });

  it('holds back `<tool` only while it could still be markup', async () => {
    const { events } = await collect(textStream(['x <to', 'ol>y <tool_', 'x>']), {
      toolNames,
      generateId,
      dialects: ALL_DIALECTS,
    });

    expect(events).toEqual([text('x '), text('<tool>y '), text('<tool_x>')]);
  });

  it('releases `<tool_call>` followed by prose at once, not at the end', async () => {
    const { events } = await collect(textStream(['Use <tool_call>', ' tags', ' like so.']), {
      toolNames,
      generateId,
      dialects: ALL_DIALECTS,
    });

    expect(events).toEqual([text('Use '), text('<tool_call>'), text(' tags'), text(' like so.')]);
  });

  it('accepts a block left unclosed at the end (`</tool_call>` consumed as a stop token)', async () => {
    const { events, turn } = await collect(
      textStream(['<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n']),
      {
        toolNames,
        generateId,
        dialects: ALL_DIALECTS,
      },
    );

    expect(events).toEqual([weather('Rome')]);
    expect(turn?.finishReason).toBe('tool_calls');
  });

  it('reads several blocks, `parameters` instead of `arguments`, and keeps structured calls in arrival order', async () => {
    const { events } = await collect(
      [
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_s',
              function: { name: 'get_weather', arguments: '{"city":"Bern"}' },
            },
          ],
        }),
        chunk({
          content:
            '<tool_call>{"name":"get_weather","parameters":{"city":"Oslo"}}</tool_call><tool_call>{"name":"get_weather","arguments":"{\\"city\\":\\"Rome\\"}"}</tool_call>',
        }),
        chunk({}, 'stop'),
        STREAM_DONE,
      ],
      { toolNames, generateId, dialects: ALL_DIALECTS },
    );

    expect(events).toEqual([
      { type: 'tool_use', id: 'call_s', name: 'get_weather', input: { city: 'Bern' } },
      weather('Oslo'),
      weather('Rome'),
    ]);
  });

  it('reports markup for a registered tool with non-object arguments as INVALID_TOOL_INPUT', async () => {
    const { events } = await collect(
      textStream(['<tool_call>{"name":"get_weather","arguments":[1]}</tool_call>']),
      { toolNames, generateId, dialects: ALL_DIALECTS },
    );

    expect(events).toEqual([
      {
        type: 'tool_use_error',
        code: 'INVALID_TOOL_INPUT',
        error: 'Tool "get_weather" received arguments that are not a JSON object (got an array).',
        rawData: '[1]',
        toolUseId: 'gen000001',
        name: 'get_weather',
      },
    ]);
  });

  it('drops a call read before a lone </think>: it was written while reasoning (Qwen3 template)', async () => {
    const markup = '<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>';
    const { events, turn } = await collect(
      textStream([
        'I could do ',
        markup,
        ' but no.</think>',
        '<tool_call>{"name":"get_weather","arguments":{"city":"Rome"}}</tool_call>',
      ]),
      { toolNames, generateId, dialects: ALL_DIALECTS },
    );

    expect(events).toEqual([
      text('I could do '),
      { type: 'text_was_reasoning', text: 'I could do ' },
      reasoning(markup),
      reasoning(' but no.'),
      weather('Rome'),
    ]);
    expect(turn).toMatchObject({
      text: '',
      reasoning: `I could do ${markup} but no.`,
      toolCalls: [weather('Rome')],
    });
  });

  it('does not look for markup inside reasoning', async () => {
    const markup = '<tool_call>{"name":"get_weather","arguments":{}}</tool_call>';
    const { events } = await collect(textStream([`<think>I could write ${markup}</think>Fine.`]), {
      toolNames,
      generateId,
      dialects: ALL_DIALECTS,
    });

    expect(events).toEqual([reasoning(`I could write ${markup}`), text('Fine.')]);
  });
});
