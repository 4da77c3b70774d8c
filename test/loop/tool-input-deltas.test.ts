import { describe, expect, it } from 'vitest';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import type { AgentError } from '../../src/errors/agent-error.js';
import type { ToolInputDelta } from '../../src/loop/agent-options.js';
import { Client } from '../../src/loop/client.js';
import { collect, types } from '../support/collect.js';
import { add } from './fixtures.js';

const delta = (value: Record<string, unknown>, finish: string | null = null) => ({
  id: 'x',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: value, finish_reason: finish }],
});

/** A call whose arguments arrive in three fragments, as llama.cpp streams them. */
const fragmentedCall = {
  chunks: [
    delta({ role: 'assistant', content: '' }),
    delta({
      tool_calls: [
        { index: 0, id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":' } },
      ],
    }),
    delta({ tool_calls: [{ index: 0, function: { arguments: '2,"b"' } }] }),
    delta({ tool_calls: [{ index: 0, function: { arguments: ':3}' } }] }),
    delta({}, 'tool_calls'),
  ],
};

describe('onToolInputDelta', () => {
  it('receives the growing arguments text while the events stay the same', async () => {
    const seen: ToolInputDelta[] = [];
    const script = () => scriptedBackend([fragmentedCall, { text: 'It is 5.' }]);
    const plain = new Client({
      model: 'm',
      backend: script(),
      tools: [add],
      autoExecuteTools: true,
    });
    const watched = new Client({
      model: 'm',
      backend: script(),
      tools: [add],
      autoExecuteTools: true,
      onToolInputDelta: (value) => seen.push(value),
    });

    const expected = await collect(plain.run('2 + 3?'));
    const events = await collect(watched.run('2 + 3?'));

    expect(seen).toEqual([
      { index: 0, toolUseId: 'call_1', name: 'add', inputText: '{"a":' },
      { index: 0, toolUseId: 'call_1', name: 'add', inputText: '{"a":2,"b"' },
      { index: 0, toolUseId: 'call_1', name: 'add', inputText: '{"a":2,"b":3}' },
    ]);
    expect(types(events)).toEqual([
      'tool_use',
      'step_end',
      'tool_result',
      'text',
      'text',
      'text',
      'step_end',
      'done',
    ]);
    expect(events).toEqual(expected);
  });

  it('a throwing callback does not stop the run and is reported once', async () => {
    const reported: AgentError[] = [];
    const client = new Client({
      model: 'm',
      backend: scriptedBackend([fragmentedCall, { text: 'It is 5.' }]),
      tools: [add],
      autoExecuteTools: true,
      onToolInputDelta: () => {
        throw new Error('render failed');
      },
      onError: (error) => reported.push(error),
    });

    const events = await collect(client.run('2 + 3?'));

    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
    expect(events).toContainEqual({
      type: 'tool_use',
      id: 'call_1',
      name: 'add',
      input: { a: 2, b: 3 },
    });
    expect(reported.map((error) => [error.code, error.message])).toEqual([
      ['TOOL_FAILED', 'onToolInputDelta failed: render failed'],
    ]);
  });

  it('Client.observe adds listeners beside the options, each called even when one throws; the returned function removes them', async () => {
    const fromOptions: string[] = [];
    const observed: string[] = [];
    const errors: AgentError[] = [];
    const client = new Client({
      model: 'm',
      backend: scriptedBackend([
        fragmentedCall,
        { text: 'It is 5.' },
        fragmentedCall,
        { text: 'It is 5.' },
      ]),
      tools: [add],
      autoExecuteTools: true,
      onToolInputDelta: (value) => {
        fromOptions.push(value.inputText);
        throw new Error('options callback broke');
      },
      onError: (error) => errors.push(error),
    });
    const stop = client.observe({ onToolInputDelta: (value) => observed.push(value.inputText) });

    await collect(client.run('2 + 3?'));
    stop();
    await collect(client.run('again'));

    expect(observed).toEqual(['{"a":', '{"a":2,"b"', '{"a":2,"b":3}']);
    expect(fromOptions).toHaveLength(6);
    expect(errors.map((error) => error.message)).toEqual([
      'onToolInputDelta failed: options callback broke',
      'onToolInputDelta failed: options callback broke',
    ]);
  });
});
